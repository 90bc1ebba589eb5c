/** @module @toolreg/tools-jira — the Jira Cloud toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { adfToMarkdown } from "./adf/adf-to-markdown.js";
export { markdownToAdf } from "./adf/markdown-to-adf.js";
export { type JiraConfig, JiraConfigSchema } from "./jira-config.js";
export { ATLASSIAN_OAUTH, jiraToolkit } from "./toolkit.js";
