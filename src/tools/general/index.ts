/** @module The general toolkit: time, arithmetic, a scratchpad and a bounded wait. Needs nothing to run. */
import type { ToolModule } from "../../registry/tool-module.js";
import { systemTimeSource, type TimeSource } from "./time-source.js";
import { generalToolkit } from "./toolkit.js";

export { fixedTimeSource, systemTimeSource, type TimeSource } from "./time-source.js";
export { generalToolkit } from "./toolkit.js";

export interface GeneralToolDeps {
  /** Where `now` reads the time; the system clock when omitted. */
  timeSource?: TimeSource;
}

export const generalTools: ToolModule<GeneralToolDeps> = (deps) =>
  generalToolkit.withEnv({ timeSource: deps.timeSource ?? systemTimeSource });

const onSystemClock = generalToolkit.withEnv({ timeSource: systemTimeSource });
const named = (name: string) => onSystemClock.find((tool) => tool.name === name)!;
/** The general tools one by one, for a host (or a test) that serves a few tools rather than the toolkit. */
export const calculateTool = named("calculate");
export const thinkTool = named("think");
export const sleepTool = named("sleep");
