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

/** One call of a tool that returns `output` under its cap (1,000 bytes), kept by `store` when given. */
async function cut(
  output: ToolOutput<unknown>,
  store?: OutputStore,
  outputBytes = 1_000,
): Promise<OkEnvelope> {
  const tool = createScriptedTool([output], { limits: { outputBytes } });
  const { seam, context } = createTestHarness([tool], store ? { outputs: store } : {});
  const envelope = await seam.call(context(), "scripted_tool", {});
  if (!envelope.ok) throw new Error(`expected ok, got ${JSON.stringify(envelope)}`);
  return envelope;
}

/** The texts the notes in `content` point to, read back from the store, in the notes' order. */
async function keptAside(content: string): Promise<string[]> {
  const refs = [...content.matchAll(/"ref":"(out_[0-9a-f]{64})"/g)].map((match) => match[1] as string);
  const kept = await Promise.all(refs.map((ref) => outputs.get({ tenantId: "t1", principalId: "p1", ref })));
  return kept.map((output) => output?.text ?? "");
}

/** The notes in `content` point at `text` and then at `data`'s JSON, each kept whole. */
async function expectKept(content: string, text: string, data: unknown): Promise<void> {
  const [keptText, json] = await keptAside(content);
  expect(keptText).toBe(text);
  expect(JSON.parse(json as string)).toEqual(data);
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

  it("keeps what a note about dropped data pushes out of the page, and the data, each readable", async () => {
    const data = { rows: "y".repeat(5_000) };
    const envelope = await cut(
      { content: `${"x".repeat(700)} THE END`, data, provenance: untrusted },
      outputs,
    );
    expect(envelope.truncated).toBe(true);
    expect(envelope.data).toBeUndefined();
    expectClosedFence(envelope.content);
    expect(Buffer.byteLength(envelope.content)).toBeLessThanOrEqual(1_000);
    await expectKept(envelope.content, `${"x".repeat(700)} THE END`, data);
  });

  it("keeps both the text and the data when both are over the cap", async () => {
    const data = { rows: "y".repeat(5_000) };
    const envelope = await cut({ content: "x".repeat(3_000), data }, outputs);
    expect(envelope.data).toBeUndefined();
    expect(Buffer.byteLength(envelope.content)).toBeLessThanOrEqual(1_000);
    expect(envelope.content).toMatch(/cut at character \d+ of 3000 .*the whole text is kept/);
    expect(envelope.content).toMatch(/data \(\d+ characters of JSON\) did not fit in its 1000-byte cap/);
    await expectKept(envelope.content, "x".repeat(3_000), data);
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

  it("moves the data aside when it leaves no room for page text beside it", async () => {
    const data = { rows: "y".repeat(900) };
    // Without a store nothing can be kept: the data stays and no page text fits beside it.
    const alone = await cut({ content: "x".repeat(5_000), data, provenance: untrusted });
    expect(alone).toMatchObject({ content: "", truncated: true, data });
    const kept = await cut({ content: "x".repeat(5_000), data, provenance: untrusted }, outputs);
    expect(kept.data).toBeUndefined();
    expectClosedFence(kept.content);
    expect(kept.content).toContain("x".repeat(100));
    expect(Buffer.byteLength(kept.content)).toBeLessThanOrEqual(1_000);
    await expectKept(kept.content, "x".repeat(5_000), data);
  });

  it("counts the bytes of data that is not plain ASCII against the cap", async () => {
    const data = { s: "é".repeat(900) };
    for (const store of [outputs, undefined]) {
      const envelope = await cut({ content: "x".repeat(1_900), data }, store, 3_000);
      expect(envelope.truncated).toBe(true);
      expect(envelope.data).toEqual(data);
      const bytes = Buffer.byteLength(envelope.content) + Buffer.byteLength(JSON.stringify(envelope.data));
      expect(bytes).toBeLessThanOrEqual(3_000);
    }
  });

  it("shows a tool's data as its whole text, once, when only data was returned and no page fits beside it", async () => {
    const data = { rows: "y".repeat(1_880) };
    const envelope = await cut({ data }, outputs, 2_000);
    // The text is the data's JSON: shown whole, it is not kept aside, nor carried twice.
    expect(JSON.parse(envelope.content)).toEqual(data);
    expect(envelope.data).toBeUndefined();
    expect(envelope.truncated).toBe(true);
  });

  it("still says where to read on when the store keeps the text but fails to keep the data", async () => {
    let puts = 0;
    const failingSecond: OutputStore = {
      put: (output) => (++puts === 2 ? Promise.reject(new Error("disk full")) : outputs.put(output)),
      get: (request) => outputs.get(request),
    };
    const envelope = await cut(
      { content: "x".repeat(3_000), data: { rows: "y".repeat(5_000) } },
      failingSecond,
    );
    expect(puts).toBe(2);
    expect(envelope.content).toMatch(/the whole text is kept/);
    expect(envelope.content).not.toContain("did not fit");
    expect(await keptAside(envelope.content)).toEqual(["x".repeat(3_000)]);
  });
});
