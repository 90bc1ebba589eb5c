/**
 * @module For a tool whose piece of the environment is optional (fs_write without a write root): as a
 * destructuring default it refuses the call; `available` keeps such a tool out of a registry anyway.
 */
import { ToolFailure } from "../../errors/tool-failure.js";

export function missing(what: string): never {
  throw new ToolFailure("precondition_failed", `this deployment has configured no ${what} for this tool`);
}
