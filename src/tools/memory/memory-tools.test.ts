/** @module The memory tools through a real seam over the in-process memory store: scoping, caps, fencing, refusals. */
import { describe, expect, it } from "vitest";
import { createMemoryMemoryStore } from "../../stores/memory/memories.js";
import { createTestHarness } from "../../test/test-harness.js";
import { createToolkitHost } from "../toolkit/toolkit-host.js";
import { memoryTools } from "./index.js";
import { memoryToolkit } from "./toolkit.js";

function harness(maxMemories?: number) {
  const memories = createMemoryMemoryStore(maxMemories === undefined ? {} : { maxMemories });
  return { memories, ...createTestHarness(memoryTools({ memories })) };
}

const ada = { tenantId: "acme", principalId: "user:ada" };
const bob = { tenantId: "acme", principalId: "user:bob" };

describe("memory toolkit through the seam", () => {
  it("saves a note for the caller and finds it again, fenced as untrusted with no citation", async () => {
    const { seam, context } = harness();
    const saved = await seam.call(context(ada), "memory_save", {
      text: "Ada wants invoices sent to the Paris office",
      tags: ["billing"],
    });
    expect(saved).toMatchObject({
      ok: true,
      data: { id: expect.stringMatching(/^mem_/), tags: ["billing"] },
    });
    const id = saved.ok ? (saved.data as { id: string }).id : "";

    const found = await seam.call(context(ada), "memory_search", { query: "where do invoices go" });
    expect(found).toMatchObject({
      ok: true,
      provenance: { source: "memory_search: saved by an agent", trusted: false },
      data: { memories: [{ id, text: "Ada wants invoices sent to the Paris office", tags: ["billing"] }] },
    });
    const content = found.ok ? found.content : "";
    expect(content).toMatch(
      /^<untrusted-content id="[0-9a-f]{16}" source="memory_search: saved by an agent">/,
    );
    expect(content).toContain("Ada wants invoices sent to the Paris office");
    expect(content).toContain(id);
    expect(found.ok && "citations" in found).toBe(false);
  });

  it("keeps one principal's memories from a colleague in the same tenant, even given the id", async () => {
    const { seam, context } = harness();
    const saved = await seam.call(context(ada), "memory_save", { text: "My locker code is 4711" });
    const id = saved.ok ? (saved.data as { id: string }).id : "";
    expect(await seam.call(context(bob), "memory_search", { query: "locker code 4711" })).toEqual({
      ok: true,
      content: 'No memory matches "locker code 4711".',
      data: { query: "locker code 4711", memories: [] },
    });
    expect(await seam.call(context(bob), "memory_forget", { id })).toMatchObject({
      ok: false,
      error: { code: "precondition_failed", message: expect.stringContaining(`no memory ${id}`) },
    });
    expect(await seam.call(context(ada), "memory_search", { query: "locker" })).toMatchObject({
      ok: true,
      data: { memories: [{ id }] },
    });
  });

  it("forgets the caller's memory once, and tells the model what to do when the memory is full", async () => {
    const { seam, context } = harness(2);
    const first = await seam.call(context(ada), "memory_save", { text: "one" });
    await seam.call(context(ada), "memory_save", { text: "two" });
    const full = await seam.call(context(ada), "memory_save", { text: "three" });
    expect(full).toMatchObject({
      ok: false,
      error: { code: "precondition_failed", details: { reason: "full", limit: 2 } },
    });
    expect(!full.ok && full.error.message).toMatch(/keeps 2 memories.*memory_forget/);
    const id = first.ok ? (first.data as { id: string }).id : "";
    expect(await seam.call(context(ada), "memory_forget", { id })).toMatchObject({
      ok: true,
      data: { id, forgotten: true },
    });
    expect(await seam.call(context(ada), "memory_forget", { id })).toMatchObject({ ok: false });
    expect(await seam.call(context(ada), "memory_save", { text: "three" })).toMatchObject({ ok: true });
  });

  it("refuses hostile or oversized input before the store is reached", async () => {
    const { seam, context, memories } = harness();
    for (const [tool, input] of [
      ["memory_save", { text: "   " }],
      ["memory_save", { text: "x".repeat(4_097) }],
      ["memory_save", { text: "ok", tags: ["Has Spaces"] }],
      ["memory_save", { text: "ok", tags: Array.from({ length: 9 }, (_, n) => `t${n}`) }],
      ["memory_save", { text: "ok", tenantId: "globex" }],
      ["memory_save", { text: "a NUL \u0000 PostgreSQL's text would refuse" }],
      ["memory_forget", { id: "../other" }],
      ["memory_search", { query: "" }],
      ["memory_search", { query: "x", limit: 51 }],
    ] as const) {
      expect(await seam.call(context(ada), tool, input), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: "invalid_input" },
      });
    }
    // 1,366 euro signs fit the schema's 4,096 characters but not the store's 4,096 bytes.
    expect(await seam.call(context(ada), "memory_save", { text: "€".repeat(1_366) })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", details: { reason: "too_large" } },
    });
    expect((await memories.list(ada, { limit: 10 })).memories).toEqual([]);
  });

  it("is not served when the host lends no memory store, and declares its effects", async () => {
    expect(memoryTools({})).toEqual([]);
    expect(await memoryToolkit.build({}, createToolkitHost())).toEqual([]);
    const served = await memoryToolkit.build({}, createToolkitHost({ memories: createMemoryMemoryStore() }));
    expect(served.map((tool) => [tool.name, tool.effect])).toEqual([
      ["memory_save", "internal-write"],
      ["memory_search", "read"],
      ["memory_forget", "internal-write"],
    ]);
  });
});
