/** @module @toolreg/tools-browser — the governed browser toolkit; load it by name from toolreg.config.json. */

export { type BrowserConfig, BrowserConfigSchema } from "./browser-config.js";
export { browserToolkit } from "./toolkit.js";
