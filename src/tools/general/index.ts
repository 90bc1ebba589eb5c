/** @module The general toolkit: time, arithmetic, a scratchpad and a bounded wait. Needs nothing to run. */
import type { ToolModule } from "../../registry/tool-module.js";
import { calculateTool } from "./calculate.js";
import { createNowTool } from "./now.js";
import { sleepTool } from "./sleep.js";
import { thinkTool } from "./think.js";
import { systemTimeSource, type TimeSource } from "./time-source.js";

export { fixedTimeSource, systemTimeSource, type TimeSource } from "./time-source.js";

export interface GeneralToolDeps {
  /** Where `now` reads the time; the system clock when omitted. */
  timeSource?: TimeSource;
}

export const generalTools: ToolModule<GeneralToolDeps> = (deps) => [
  createNowTool(deps.timeSource ?? systemTimeSource),
  calculateTool,
  thinkTool,
  sleepTool,
];
