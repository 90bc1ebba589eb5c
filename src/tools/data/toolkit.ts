/** @module The data toolkit: CSV parsing and JSON queries over text the caller passes in. Needs nothing. */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { parseCsvSpec } from "./parse-csv.js";
import { queryJsonSpec } from "./query-json.js";

export const dataToolkit = defineToolkit({
  id: "data",
  version: "1.0.0",
  package: "toolreg",
  description: "Parses CSV and queries JSON that the caller passes in; reads nothing else.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [parseCsvSpec, queryJsonSpec],
  bind: () => ({}),
});
