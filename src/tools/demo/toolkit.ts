/**
 * @module The demo toolkit: a small CRM, a task list and alerts in one SQLite file, per tenant, so a console
 * has real reads and real approval-gated writes to show. Not for production data.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { alertsWriteSpec } from "./alerts-write.js";
import { crmReadSpec } from "./crm-read.js";
import { crmWriteSpec } from "./crm-write.js";
import type { DemoEnv } from "./demo-env.js";
import { tasksWriteSpec } from "./tasks-write.js";

export const demoToolkit = defineToolkit({
  id: "demo",
  version: "1.0.0",
  package: "toolreg",
  description:
    "A demo CRM, task list and alerts in one SQLite file, per tenant: real reads and gated writes to try.",
  config: z.strictObject({
    database: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "the demo's SQLite file, created with its tables on first use" }),
  }),
  auth: { kind: "none" },
  tools: [crmReadSpec, crmWriteSpec, tasksWriteSpec, alertsWriteSpec],
  triage: {
    directed: [
      {
        tool: "alerts_write",
        package: "toolreg",
        why: "notifies a person of the deployment's own team, never a public audience",
      },
    ],
  },
  bind: ({ database }) => (database === undefined ? undefined : demoEnv(database)),
});

export function demoEnv(path: string): DemoEnv {
  // better-sqlite3 reads both as "a private temporary database", which would vanish after every call.
  if (path === "" || path === ":memory:") {
    throw new TypeError("demoTools: demoDb must be the path of a file, not an in-memory database");
  }
  return { path };
}
