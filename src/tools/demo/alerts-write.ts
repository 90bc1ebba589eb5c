/** @module `alerts_write`: raises an alert to a person; approved every time and recorded at most once per call. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { demoTool } from "./demo-env.js";
import { DEMO_WRITE_LIMITS, lineField, textField } from "./demo-fields.js";
import { inTenantTransaction, nextId } from "./tenant-transaction.js";

const SEVERITIES = ["INFO", "WARNING", "CRITICAL"] as const;

export const alertsWriteSpec = demoTool({
  name: "alerts_write",
  description:
    "Raises an alert that notifies a person now: something is wrong or needs attention soon (a deal at risk, a failed check, an unhappy customer). " +
    "A person approves every alert before it is raised, so expect it to wait for approval. For work that can wait, use tasks_write instead. Returns the alert's id.",
  category: "communication",
  effect: "external-write",
  // Its table is unique on the key: a second run under it raises nothing.
  upstreamDeduplicates: true,
  cost: "io",
  input: z.object({
    subject: lineField(200, "what is wrong, as one line a person can act on"),
    severity: z
      .enum(SEVERITIES)
      .default("INFO")
      .describe(
        "how bad: INFO (for their attention), WARNING (act soon) or CRITICAL (act now); default INFO",
      ),
    detail: textField("optional supporting detail: what was seen, where, what you suggest").optional(),
  }),
  limits: DEMO_WRITE_LIMITS,
  run({ subject, severity, detail }, context, { path }) {
    const key = context.idempotencyKey;
    // The seam gives every external-write call a key; without one, a replay could alert twice.
    if (key === undefined) throw new ToolFailure("internal", "alerts_write ran without an idempotency key");
    const { id, replayed } = inTenantTransaction(path, context.tenantId, (db) => {
      // The UNIQUE (tenant_id, idempotency_key) constraint decides: a replayed call inserts nothing.
      const inserted = db
        .prepare(
          `INSERT INTO alerts (tenant_id, id, subject, severity, detail, raised_by, created_at, idempotency_key)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, idempotency_key) DO NOTHING`,
        )
        .run(
          context.tenantId,
          nextId(db, "alerts", context.tenantId),
          subject,
          severity,
          detail ?? null,
          context.principalId,
          new Date().toISOString(),
          key,
        );
      const recorded = db
        .prepare("SELECT id FROM alerts WHERE tenant_id = ? AND idempotency_key = ?")
        .get(context.tenantId, key) as { id: number };
      return { id: recorded.id, replayed: inserted.changes === 0 };
    });
    return {
      content: `${replayed ? "Alert already raised" : "Raised alert"} ${id} (${severity}): ${subject}.`,
      data: { id, severity, replayed },
    };
  },
});
