/**
 * @module The demo toolkit: a small CRM, a task list and alerts in one SQLite file, per tenant, so a console
 * has real reads and real approval-gated writes to show. Not for production data.
 */
import type { ToolModule } from "../../registry/tool-module.js";
import { createAlertsWriteTool } from "./alerts-write.js";
import { createCrmReadTool } from "./crm-read.js";
import { createCrmWriteTool } from "./crm-write.js";
import { createTasksWriteTool } from "./tasks-write.js";

export { openDemoDatabase } from "./demo-database.js";

export interface DemoToolDeps {
  /**
   * Path of the demo SQLite file, created with its tables on first use: the tools exist exactly when it is
   * given. Each call opens it afresh, so deleting the file resets the demo.
   */
  demoDb?: string;
}

export const demoTools: ToolModule<DemoToolDeps> = (deps) => {
  const path = deps.demoDb;
  if (path === undefined) return [];
  // better-sqlite3 reads both as "a private temporary database", which would vanish after every call.
  if (path === "" || path === ":memory:") {
    throw new TypeError("demoTools: demoDb must be the path of a file, not an in-memory database");
  }
  return [
    createCrmReadTool(path),
    createCrmWriteTool(path),
    createTasksWriteTool(path),
    createAlertsWriteTool(path),
  ];
};
