/** @module toolreg/tools — the first-party toolkits and the default registry the CLI serves. */
import { ToolRegistry } from "../registry/registry.js";
import { type GeneralToolDeps, generalTools } from "./general/index.js";

export {
  fixedTimeSource,
  type GeneralToolDeps,
  generalTools,
  systemTimeSource,
  type TimeSource,
} from "./general/index.js";

export type DefaultToolDeps = GeneralToolDeps;

/** The registry of every first-party toolkit whose dependencies are met. */
export function createDefaultRegistry(deps: DefaultToolDeps = {}): ToolRegistry {
  return ToolRegistry.fromModules([generalTools], deps);
}
