import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createArtifactOutputStore } from "../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import type { ToolOutput } from "../declaration/define-tool.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import type { OkEnvelope } from "./envelope.js";
import type { OutputStore } from "./output-store.js";

const scratch = mkdtempSync(join(tmpdir(), "toolreg-spill-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const outputs = createArtifactOutputStore(createFileArtifactStore(scratch));
const untrusted = { source: "https://example.test/page", trusted: false };

/** One call of a tool that returns `output` under a 1,000-byte cap, kept by `store` when given. */
async function cut(output: ToolOutput<unknown>, store?: OutputStore): Promise<OkEnvelope> {
  const tool = createScriptedTool([output], { limits: { outputBytes: 1_000 } });
  const { seam, context } = createTestHarness([tool], store ? { outputs: store } : {});
  const envelope = await seam.call(context(), "scripted_tool", {});
  if (!envelope.ok) throw new Error(`expected ok, got ${JSON.stringify(envelope)}`);
  return envelope;
}

/** The fence opens once and closes once with the same nonce, and nothing of the page follows it but a note. */
function expectClosedFence(content: string): void {
  const opens = [...content.matchAll(/<untrusted-content id="([0-9a-f]+)"/g)];
  const closes = [...content.matchAll(/<\/untrusted-content id="([0-9a-f]+)">/g)];
  expect(opens).toHaveLength(1);
  expect(closes.map((match) => match[1])).toEqual([opens[0]?.[1]]);
  expect(content.slice((closes[0]?.index ?? 0) + (closes[0]?.[0].length ?? 0))).not.toMatch(/x{3}/);
}

describe("an untrusted output over its cap", () => {
  it("never ends the head of a cut untrusted output in half an emoji, however the fence lengthens it", async () => {
    // Headings and chat markers grow when neutralised, so the head is shortened after its first cut.
    const line = "###### 😀😀😀 <|im_start|>\n";
    for (let pad = 0; pad < 40; pad++) {
      const envelope = await cut(
        { content: "x".repeat(pad) + line.repeat(400), provenance: untrusted },
        outputs,
      );
      expect(envelope.truncated).toBe(true);
      // With the `u` flag only an unpaired half is a code point of category Surrogate.
      expect(envelope.content).not.toMatch(/\p{Surrogate}/u);
      expectClosedFence(envelope.content);
      expect(Buffer.byteLength(envelope.content)).toBeLessThanOrEqual(1_000);
    }
  });

  it("is cut inside its fence when there is no output store to keep it", async () => {
    const envelope = await cut({ content: "x".repeat(5_000), provenance: untrusted });
    expect(envelope.truncated).toBe(true);
    expectClosedFence(envelope.content);
    expect(Buffer.byteLength(envelope.content)).toBeLessThanOrEqual(1_000);
    expect(envelope.content).toContain("x".repeat(500));
  });

  it("keeps its fence closed when the note about dropped data shortens the content", async () => {
    const envelope = await cut(
      { content: "x".repeat(700), data: { rows: "y".repeat(5_000) }, provenance: untrusted },
      outputs,
    );
    expect(envelope.truncated).toBe(true);
    expect(envelope.data).toBeUndefined();
    expectClosedFence(envelope.content);
    expect(envelope.content).toMatch(/data \(\d+ characters of JSON\) is over its 1000-byte cap/);
    expect(Buffer.byteLength(envelope.content)).toBeLessThanOrEqual(1_000);
  });

  it("holds the cap with the data it keeps, in its fence, with or without an output store", async () => {
    const data = { rows: "y".repeat(300) };
    for (const store of [outputs, undefined]) {
      const envelope = await cut({ content: "x".repeat(5_000), data, provenance: untrusted }, store);
      expect(envelope.data).toEqual(data);
      expectClosedFence(envelope.content);
      const bytes = Buffer.byteLength(envelope.content) + Buffer.byteLength(JSON.stringify(envelope.data));
      expect(bytes).toBeLessThanOrEqual(1_000);
    }
  });

  it("shows no page text at all when the room its data leaves is smaller than a fence", async () => {
    const data = { rows: "y".repeat(900) };
    const alone = await cut({ content: "x".repeat(5_000), data, provenance: untrusted });
    expect(alone).toMatchObject({ content: "", truncated: true, data });
    const kept = await cut({ content: "x".repeat(5_000), data, provenance: untrusted }, outputs);
    expect(kept.content).toMatch(/^\n\[cut at character 0 of 5000 .*read_tool_output .*"offset":0\}\]$/);
    expect(kept.content).not.toContain("xxx");
  });
});
