import { describe, expect, it } from "vitest";
import { classifyEffect, importedHints } from "./classify-effect.js";

describe("importedHints", () => {
  it("is always open world: an imported tool reaches its upstream, whatever the upstream says", () => {
    expect(importedHints(undefined)).toEqual({ openWorld: true });
    expect(importedHints({ openWorldHint: false, readOnlyHint: true, idempotentHint: true })).toEqual({
      openWorld: true,
    });
  });

  it("keeps only the upstream's cautions, never its reassurances", () => {
    expect(importedHints({ readOnlyHint: false, destructiveHint: true, idempotentHint: false })).toEqual({
      openWorld: true,
      readOnly: false,
      destructive: true,
      idempotent: false,
    });
    expect(importedHints({ destructiveHint: false })).toEqual({ openWorld: true });
  });

  it("leaves the effect to the deployment's classification while the hints keep the upstream's warning", () => {
    const annotations = { destructiveHint: true };
    expect(classifyEffect(annotations, "read").effect).toBe("read");
    expect(importedHints(annotations).destructive).toBe(true);
  });
});
