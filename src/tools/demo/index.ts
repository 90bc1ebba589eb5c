/**
 * @module The demo toolkit: a small CRM, a task list and alerts in one SQLite file, per tenant, so a console
 * has real reads and real approval-gated writes to show. Not for production data.
 */
import type { ToolModule } from "../../registry/tool-module.js";
import { demoEnv, demoToolkit } from "./toolkit.js";

export { openDemoDatabase } from "./demo-database.js";
export { demoToolkit } from "./toolkit.js";

export interface DemoToolDeps {
  /**
   * Path of the demo SQLite file, created with its tables on first use: the tools exist exactly when it is
   * given. Each call opens it afresh, so deleting the file resets the demo.
   */
  demoDb?: string;
}

export const demoTools: ToolModule<DemoToolDeps> = (deps) =>
  deps.demoDb === undefined ? [] : demoToolkit.withEnv(demoEnv(deps.demoDb));
