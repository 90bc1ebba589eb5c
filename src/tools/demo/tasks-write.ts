/** @module `tasks_write`: adds a task to the tenant's demo task list, for a person to pick up. */
import { z } from "zod";
import { demoTool } from "./demo-env.js";
import { DEMO_WRITE_LIMITS, lineField, textField } from "./demo-fields.js";
import { inTenantTransaction, nextId } from "./tenant-transaction.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day (UTC) `days` after `from`, as YYYY-MM-DD. */
function dueDate(from: Date, days: number): string {
  return new Date(from.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

export const tasksWriteSpec = demoTool({
  name: "tasks_write",
  description:
    "Adds a task to the team's task list for a person to do later: a follow-up call, a document to review, a decision to make. " +
    "Pick it when the work needs a human and is not urgent; to warn someone now, use alerts_write. Returns the task's id and due date.",
  category: "project",
  effect: "internal-write",
  cost: "io",
  input: z.object({
    title: lineField(200, "what needs doing, as one line, e.g. 'Call Maya Okafor about the scanner quote'"),
    description: textField("optional detail: context, links, what done looks like").optional(),
    dueInDays: z
      .number()
      .int()
      .min(0)
      .max(365)
      .describe("optional: days from today until it is due, 0 for today; omit for no due date")
      .optional(),
  }),
  limits: DEMO_WRITE_LIMITS,
  run({ title, description, dueInDays }, context, { path }) {
    const now = new Date();
    const due = dueInDays === undefined ? null : dueDate(now, dueInDays);
    const id = inTenantTransaction(path, context.tenantId, (db) => {
      const next = nextId(db, "tasks", context.tenantId);
      db.prepare(
        "INSERT INTO tasks (tenant_id, id, title, description, due_date, requested_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      ).run(context.tenantId, next, title, description ?? null, due, context.principalId, now.toISOString());
      return next;
    });
    return {
      content: `Added task ${id}: ${title}${due === null ? "" : ` (due ${due})`}.`,
      data: { id, dueDate: due },
    };
  },
});
