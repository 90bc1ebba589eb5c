/** @module @toolreg/tools-linear — the Linear toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */
export { type LinearConfig, LinearConfigSchema } from "./linear-config.js";
export { linearToolkit } from "./toolkit.js";
