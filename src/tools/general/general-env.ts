/** @module What the general tools run against: only the clock `now` reads. */
import { toolFor } from "../toolkit/define-toolkit.js";
import type { TimeSource } from "./time-source.js";

export interface GeneralEnv {
  timeSource: TimeSource;
}

export const generalTool = toolFor<GeneralEnv>();
