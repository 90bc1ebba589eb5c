/** @module @toolreg/tools-research — the research toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type ResearchConfig, ResearchConfigSchema } from "./research-config.js";
export { researchToolkit } from "./toolkit.js";
