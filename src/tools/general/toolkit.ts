/** @module The general toolkit: time, arithmetic, a scratchpad and a bounded wait. Needs nothing to run. */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { calculateSpec } from "./calculate.js";
import { nowSpec } from "./now.js";
import { sleepSpec } from "./sleep.js";
import { thinkSpec } from "./think.js";
import { systemTimeSource } from "./time-source.js";

export const generalToolkit = defineToolkit({
  id: "general",
  version: "1.0.0",
  package: "toolreg",
  description: "Time, arithmetic, a scratchpad and a bounded wait; needs nothing to run.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [nowSpec, calculateSpec, thinkSpec, sleepSpec],
  bind: () => ({ timeSource: systemTimeSource }),
});
