/** @module @toolreg/tools-slack — the Slack toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type SlackConfig, SlackConfigSchema } from "./slack-config.js";
export { SLACK_OAUTH, slackToolkit } from "./toolkit.js";
