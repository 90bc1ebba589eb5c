/** @module @toolreg/tools-notion — the Notion toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type NotionConfig, NotionConfigSchema } from "./notion-config.js";
export { notionToolkit } from "./toolkit.js";
