/**
 * The todo tools end to end, as a user reaches them: `toolreg serve` with no configuration, keys made by
 * `toolreg keys create`, and the HTTP invoke route. A plan is written, one item moved on, and read back in
 * the same run; another run, and a colleague in the same run id, each see an empty list of their own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createKey, invokeAs, type ServeProcess, startServe } from "../support/serve-process.js";

let served: ServeProcess | undefined;
let cwd: string;
afterEach(() => {
  served?.child.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

interface TodoEnvelope {
  ok: boolean;
  content?: string;
  data?: { items: { id: string; content: string; status: string }[]; revision: number };
  error?: { code: string; message: string };
}

describe("the todo tools through toolreg serve", () => {
  it("writes a plan, moves one item on and reads it back in its run; other runs and principals see their own", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-todo-serve-"));
    served = await startServe(cwd);
    const { url } = served;
    const [alice, bob] = [await createKey(cwd, "acme", "alice"), await createKey(cwd, "acme", "bob")];
    const invoke = (key: string, run: string, tool: string, input: unknown) =>
      invokeAs<TodoEnvelope>(url, key, run, tool, input);

    const planned = await invoke(alice, "plan-1", "todo_write", {
      items: [
        { content: "Read the invoice", status: "in_progress" },
        { content: "Check the totals", status: "pending" },
        { content: "Write the summary", status: "pending" },
      ],
    });
    expect(planned.status).toBe(200);
    expect(planned.envelope.content).toBe(
      [
        "Todo list, revision 1: 0 of 3 completed, 1 in progress, 2 pending.",
        "[>] 1: Read the invoice",
        "[ ] 2: Check the totals",
        "[ ] 3: Write the summary",
      ].join("\n"),
    );

    const moved = await invoke(alice, "plan-1", "todo_write", {
      expectedRevision: 1,
      items: [
        { id: "1", content: "Read the invoice", status: "completed" },
        { id: "2", content: "Check the totals", status: "in_progress" },
        { id: "3", content: "Write the summary", status: "pending" },
      ],
    });
    expect(moved.envelope.data?.revision).toBe(2);

    const read = await invoke(alice, "plan-1", "todo_read", {});
    expect(read.status).toBe(200);
    expect(read.envelope.data).toEqual({
      revision: 2,
      items: [
        { id: "1", content: "Read the invoice", status: "completed" },
        { id: "2", content: "Check the totals", status: "in_progress" },
        { id: "3", content: "Write the summary", status: "pending" },
      ],
    });
    expect(read.envelope.content).toContain("[x] 1: Read the invoice\n[>] 2: Check the totals");

    // A write from a stale revision (another agent of the run wrote first) is refused and changes nothing.
    const stale = await invoke(alice, "plan-1", "todo_write", { expectedRevision: 1, items: [] });
    expect(stale.envelope).toMatchObject({ ok: false, error: { code: "precondition_failed" } });
    expect((await invoke(alice, "plan-1", "todo_read", {})).envelope.data?.revision).toBe(2);

    const empty = { items: [], revision: 0 };
    expect((await invoke(alice, "plan-2", "todo_read", {})).envelope.data).toEqual(empty);
    expect((await invoke(bob, "plan-1", "todo_read", {})).envelope.data).toEqual(empty);
  });
});
