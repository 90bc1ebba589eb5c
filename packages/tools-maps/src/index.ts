/** @module @toolreg/tools-maps — the maps toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type MapsConfig, MapsConfigSchema } from "./maps-config.js";
export type { MapsProvider, PlaceHit } from "./maps-provider.js";
export { mapsToolkit } from "./toolkit.js";
