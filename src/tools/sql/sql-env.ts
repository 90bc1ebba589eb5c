/** @module What the SQL tools run against: a read-only reader, a writer on its own connection, or both. */
import { toolFor } from "../toolkit/define-toolkit.js";
import type { SqlReader, SqlWriter } from "./sql-port.js";

export interface SqlEnv {
  reader?: SqlReader | undefined;
  writer?: SqlWriter | undefined;
}

export const sqlTool = toolFor<SqlEnv>();
