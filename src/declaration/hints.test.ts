import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool, type ToolDeclaration } from "./define-tool.js";
import type { Effect } from "./effect.js";
import type { ToolHints } from "./hints.js";

function declared(effect: Effect, hints?: unknown) {
  const declaration: ToolDeclaration<object, unknown> = {
    name: "probe",
    description: "a probe",
    category: "general",
    effect,
    input: z.object({}),
    run: () => "ok",
  };
  return defineTool(hints === undefined ? declaration : { ...declaration, hints: hints as ToolHints });
}

describe("declared hints", () => {
  it("refuses a hint that would tell a client less than the effect or the default does", () => {
    expect(() => declared("read", { readOnly: true })).toThrow(/hints: readOnly can only be false/);
    expect(() => declared("external-write", { openWorld: false })).toThrow(/openWorld can only be true/);
    expect(() => declared("read", { destructive: false })).toThrow(/destructive can only be true/);
    expect(() => declared("read", { closedWorld: true })).toThrow(/closedWorld is not a hint/);
  });

  it("keeps only what the effect does not imply, so restating the effect leaves the hash alone", () => {
    const plain = declared("external-write");
    const restated = declared("external-write", { openWorld: true, readOnly: false, idempotent: false });
    expect(restated.hints).toEqual({});
    expect(restated.hash).toBe(plain.hash);
  });

  it("makes a tool whose hints add caution a new version of itself (its hash changes)", () => {
    const open = declared("read", { openWorld: true });
    expect(open.hints).toEqual({ openWorld: true });
    expect(open.hash).not.toBe(declared("read").hash);
    expect(declared("read", { openWorld: true, destructive: true }).hash).not.toBe(open.hash);
  });
});
