/** @module @toolreg/tools-confluence — the Confluence toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type ConfluenceConfig, ConfluenceConfigSchema } from "./confluence-config.js";
export { ATLASSIAN_OAUTH, confluenceToolkit } from "./toolkit.js";
