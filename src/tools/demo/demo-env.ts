/** @module What the demo tools run against: the path of their SQLite file, opened afresh by each call. */
import { toolFor } from "../toolkit/define-toolkit.js";

export interface DemoEnv {
  path: string;
}

export const demoTool = toolFor<DemoEnv>();
