/** @module What `place_search` runs against once bound: the configured provider and the deployment's bound. */
import { toolFor } from "toolreg/toolkit";
import type { MapsProvider } from "./maps-provider.js";

export interface MapsEnv {
  provider: MapsProvider;
  /** The most places one search returns; a model may ask for fewer, never more. */
  maxResults: number;
}

/** Declares a maps tool: its `run` receives the bound MapsEnv. */
export const mapsTool = toolFor<MapsEnv>();
