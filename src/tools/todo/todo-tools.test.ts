import { describe, expect, it } from "vitest";
import type { TodoStore } from "../../ports/todo-store.js";
import { createMemoryTodoStore } from "../../stores/memory/todos.js";
import { createTestHarness } from "../../test/test-harness.js";
import { createToolkitHost } from "../toolkit/toolkit-host.js";
import { todoToolkit, todoTools } from "./index.js";

function harness(todos: TodoStore = createMemoryTodoStore()) {
  return { todos, ...createTestHarness(todoTools({ todos })) };
}

const plan = [
  { content: "Read the invoice", status: "completed" },
  { content: "Check the totals", status: "in_progress" },
  { content: "Write the summary", status: "pending" },
];

describe("todo toolkit through the seam", () => {
  it("todo_write stores the whole list, numbers the items that come without an id, and shows it as lines", async () => {
    const { seam, context } = harness();
    const written = await seam.call(context(), "todo_write", { items: plan });
    expect(written).toEqual({
      ok: true,
      content: [
        "Todo list, revision 1: 1 of 3 completed, 1 in progress, 1 pending.",
        "[x] 1: Read the invoice",
        "[>] 2: Check the totals",
        "[ ] 3: Write the summary",
      ].join("\n"),
      data: {
        revision: 1,
        items: [
          { id: "1", content: "Read the invoice", status: "completed" },
          { id: "2", content: "Check the totals", status: "in_progress" },
          { id: "3", content: "Write the summary", status: "pending" },
        ],
      },
    });
    // Ids the model gives are kept; new items take numbers no other item uses.
    const replaced = await seam.call(context(), "todo_write", {
      items: [
        { content: "Ask for the missing page", status: "pending" },
        { id: "2", content: "Check the totals", status: "completed" },
        { id: "verify-vat", content: "Verify the VAT", status: "pending" },
        { content: "Write the summary", status: "pending" },
      ],
    });
    expect(replaced.ok && replaced.content).toBe(
      [
        "Todo list, revision 2: 1 of 4 completed, 0 in progress, 3 pending.",
        "[ ] 1: Ask for the missing page",
        "[x] 2: Check the totals",
        "[ ] verify-vat: Verify the VAT",
        "[ ] 3: Write the summary",
        "No item is in progress: mark the next one in_progress before starting on it.",
      ].join("\n"),
    );
    const read = await seam.call(context(), "todo_read", {});
    expect(read.ok && read.data).toEqual(replaced.ok && replaced.data);
    const done = await seam.call(context(), "todo_write", {
      items: [{ id: "2", content: "Check the totals", status: "completed" }],
    });
    expect(done.ok && done.content).toMatch(/\[x\] 2: Check the totals\nEvery item is completed\.$/);
    const cleared = await seam.call(context(), "todo_write", { items: [] });
    expect(cleared.ok && cleared.content).toBe("The todo list is empty (revision 4).");
  });

  it("reaches only the list of the context's run, principal and tenant, whatever the input names", async () => {
    const { seam, context, todos } = harness();
    await seam.call(context(), "todo_write", { items: plan });
    const empty = { items: [], revision: 0 };
    for (const other of [{ runId: "r2" }, { principalId: "p2" }, { tenantId: "t2" }]) {
      const read = await seam.call(context(other), "todo_read", {});
      expect(read).toMatchObject({ ok: true, content: "The todo list is empty (revision 0).", data: empty });
    }
    // The input has no way to name another run's list: a key there is refused, and nothing is written.
    const smuggled = await seam.call(context(), "todo_write", {
      items: [{ content: "Elsewhere", status: "pending" }],
      runId: "r2",
      tenantId: "t2",
    });
    expect(smuggled).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: expect.stringContaining('unknown arguments "runId", "tenantId"'),
      },
    });
    expect((await todos.read({ tenantId: "t1", principalId: "p1", runId: "r1" })).revision).toBe(1);
    expect(await todos.read({ tenantId: "t1", principalId: "p1", runId: "r2" })).toEqual(empty);
    expect(await todos.read({ tenantId: "t2", principalId: "p1", runId: "r1" })).toEqual(empty);
  });

  it("refuses, with what to change, a second item in progress, a repeated id, too many items and a stale revision", async () => {
    const { seam, context } = harness();
    await seam.call(context(), "todo_write", { items: plan });
    const twoInProgress = await seam.call(context(), "todo_write", {
      items: [
        { id: "a", content: "One", status: "in_progress" },
        { id: "b", content: "Two", status: "in_progress" },
      ],
    });
    expect(twoInProgress).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: expect.stringContaining(
          "keep exactly one in_progress and mark the others pending or completed",
        ),
      },
    });
    const repeated = await seam.call(context(), "todo_write", {
      items: [
        { id: "a", content: "One", status: "pending" },
        { id: "a", content: "Two", status: "pending" },
      ],
    });
    expect(repeated).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining('"a" appears twice') },
    });
    const tooMany = Array.from({ length: 101 }, (_, index) => ({
      content: `step ${index}`,
      status: "pending",
    }));
    expect(await seam.call(context(), "todo_write", { items: tooMany })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("items") },
    });
    expect(
      await seam.call(context(), "todo_write", { items: [{ content: "x".repeat(501), status: "pending" }] }),
    ).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    expect(
      await seam.call(context(), "todo_write", { items: [{ content: "Go", status: "done" }] }),
    ).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    // Past a 32-bit revision (PostgreSQL's column) is refused as input, not met by a database error.
    expect(await seam.call(context(), "todo_write", { items: [], expectedRevision: 2 ** 31 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });

    expect(await seam.call(context(), "todo_write", { items: plan, expectedRevision: 1 })).toMatchObject({
      ok: true,
      data: { revision: 2 },
    });
    expect(await seam.call(context(), "todo_write", { items: [], expectedRevision: 1 })).toMatchObject({
      ok: false,
      error: {
        code: "precondition_failed",
        message: expect.stringContaining("read it again and write the whole list from there"),
        details: { expectedRevision: 1, revision: 2 },
      },
    });
    // Nothing refused was written.
    const read = await seam.call(context(), "todo_read", {});
    expect(read.ok && read.data).toMatchObject({ revision: 2, items: { length: 3 } });
  });

  it("declares todo_write an internal write and todo_read a read, neither needing approval", () => {
    const { registry } = harness();
    expect(registry.get("todo_write")).toMatchObject({ effect: "internal-write", approval: "never" });
    expect(registry.get("todo_read")).toMatchObject({ effect: "read", approval: "never" });
  });
});

describe("todo toolkit binding", () => {
  it("serves its tools on a host that lends a todo store, and none on one that does not", async () => {
    const withStore = createToolkitHost({ todos: createMemoryTodoStore() });
    const tools = await todoToolkit.build({}, withStore);
    expect(tools.map((tool) => tool.name)).toEqual(["todo_write", "todo_read"]);
    const { seam, context } = createTestHarness(tools);
    expect(await seam.call(context(), "todo_write", { items: plan })).toMatchObject({ ok: true });
    expect(await todoToolkit.build({}, createToolkitHost())).toEqual([]);
    await withStore.close();
  });
});
