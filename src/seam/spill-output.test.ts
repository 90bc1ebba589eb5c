import { describe, expect, it } from "vitest";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import type { OutputStore } from "./output-store.js";

const outputs: OutputStore = {
  put: async () => `out_${"0".repeat(64)}`,
  get: async () => undefined,
};

describe("spillCutOutput", () => {
  it("never ends the head of a cut untrusted output in half an emoji, however the fence lengthens it", async () => {
    // Headings and chat markers grow when neutralised, so the head is shortened after its first cut.
    const line = "###### 😀😀😀 <|im_start|>\n";
    for (let pad = 0; pad < 40; pad++) {
      const page = createScriptedTool(
        [{ content: "x".repeat(pad) + line.repeat(400), provenance: { source: "s", trusted: false } }],
        { limits: { outputBytes: 1_000 } },
      );
      const { seam, context } = createTestHarness([page], { outputs });
      const cut = await seam.call(context(), "scripted_tool", {});
      if (!cut.ok) throw new Error(`expected ok, got ${JSON.stringify(cut)}`);
      expect(cut.truncated).toBe(true);
      // With the `u` flag only an unpaired half is a code point of category Surrogate.
      expect(cut.content).not.toMatch(/\p{Surrogate}/u);
    }
  });
});
