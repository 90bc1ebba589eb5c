/** @module The data toolkit: CSV parsing and JSON queries over text the caller passes in. Needs nothing. */
import type { ToolModule } from "../../registry/tool-module.js";
import { dataToolkit } from "./toolkit.js";

export { PARSE_CSV_LIMITS } from "./parse-csv.js";
export { QUERY_JSON_LIMITS } from "./query-json.js";
export { dataToolkit } from "./toolkit.js";

/** Always both tools: they read only their input, so there is nothing to wire. */
// biome-ignore lint/suspicious/noConfusingVoidType: void lets a host call `dataTools()` with no argument.
export const dataTools: ToolModule<void | object> = () => dataToolkit.withEnv({});
