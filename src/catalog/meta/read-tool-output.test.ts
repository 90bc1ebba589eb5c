import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createArtifactOutputStore } from "../../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../../artifacts/file-artifact-store.js";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { createReadToolOutput } from "./read-tool-output.js";

const scratch = mkdtempSync(join(tmpdir(), "toolreg-read-output-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const outputs = createArtifactOutputStore(createFileArtifactStore(scratch));

interface Page {
  content: string;
  offset: number;
  length: number;
  nextOffset: number | null;
}

/** read_tool_output over `text`, kept in a file-backed output store as a cut output would be. */
async function reader(text: string) {
  const { seam, context } = createTestHarness([createReadToolOutput(outputs)], { outputs });
  const { tenantId, principalId } = context();
  const ref = await outputs.put({ tenantId, principalId, toolName: "dump", text });
  return async (offset: number, length: number): Promise<Page> => {
    const envelope: Envelope = await seam.call(context(), "read_tool_output", { ref, offset, length });
    if (!envelope.ok) throw new Error(`expected ok, got ${JSON.stringify(envelope)}`);
    const data = envelope.data as Omit<Page, "content">;
    return { ...data, content: envelope.content };
  };
}

/** No lone surrogate: with the `u` flag, only an unpaired half is a code point of category Surrogate. */
function wellFormed(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}

/** Every page from `offset` on, in turn. */
async function readAll(
  read: (offset: number, length: number) => Promise<Page>,
  offset: number,
  length: number,
) {
  const pages: Page[] = [];
  let next: number | null = offset;
  while (next !== null) {
    const page = await read(next, length);
    // Only the caller's offset may move back to the start of a pair; each next one is where a page ended.
    if (pages.length > 0) expect(page.offset).toBe(next);
    pages.push(page);
    next = page.nextOffset;
  }
  return pages;
}

const astral = fc.constantFrom("😀", "👍🏽", "𝄞", "🇫🇷", "a", "é", "\n");
const text = fc.oneof(
  fc.string({ unit: astral, maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 60 }),
);

describe("read_tool_output", () => {
  it("never parts a surrogate pair, and its pages put together are the whole output", async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 9 }), async (whole, length) => {
        const pages = await readAll(await reader(whole), 0, length);
        for (const page of pages) {
          expect(wellFormed(page.content)).toBe(true);
          expect(page.content.startsWith(whole.slice(page.offset, page.offset + page.length))).toBe(true);
        }
        expect(pages.map((page) => whole.slice(page.offset, page.offset + page.length)).join("")).toBe(whole);
      }),
    );
  });

  it("starts an offset inside a pair at the pair, and reads on from there to the end", async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 9 }), fc.nat(), async (whole, length, seed) => {
        const offset = seed % (whole.length + 1);
        const pages = await readAll(await reader(whole), offset, length);
        const first = pages[0] as Page;
        expect([offset, offset - 1]).toContain(first.offset);
        expect(wellFormed(whole.slice(first.offset))).toBe(true);
        for (const page of pages) expect(wellFormed(page.content)).toBe(true);
        const read = pages.map((page) => whole.slice(page.offset, page.offset + page.length)).join("");
        expect(read).toBe(whole.slice(first.offset));
      }),
    );
  });

  it("takes a whole pair for a page one unit long", async () => {
    const read = await reader("x😀y");
    expect(await read(2, 1)).toMatchObject({ offset: 1, length: 2, nextOffset: 3 });
    expect(await read(1, 1)).toMatchObject({ offset: 1, length: 2, nextOffset: 3 });
    expect(await read(0, 2)).toMatchObject({ offset: 0, length: 1, nextOffset: 1 });
  });
});
