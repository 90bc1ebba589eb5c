/**
 * @module The Slack toolkit: list channels, read a channel's history, post and reply, every request through
 * toolreg's egress to the configured Web API host only, with the credential injected there. A tenant
 * connects a bot token (xoxb-) or a user token through Slack's OAuth v2.
 */
import { defineToolkit } from "toolreg/toolkit";
import { chatTools } from "./chat/index.js";
import { conversationTools } from "./conversations/index.js";
import { createSlackClient } from "./slack-client.js";
import { SlackConfigSchema } from "./slack-config.js";
import type { SlackEnv } from "./slack-env.js";

const PACKAGE = "@toolreg/tools-slack";

/** Slack's OAuth v2: scopes go comma-separated; the token endpoint is a Web API method. */
export const SLACK_OAUTH = {
  authorizeUrl: "https://slack.com/oauth/v2/authorize",
  tokenUrl: "https://slack.com/api/oauth.v2.access",
  scopeSeparator: ",",
} as const;

export const slackToolkit = defineToolkit({
  id: "slack",
  version: "0.1.0",
  package: PACKAGE,
  description: "Slack: find channels, read their messages, post and reply in threads.",
  config: SlackConfigSchema,
  auth: { kind: "token-or-oauth", header: "authorization", scheme: "Bearer", oauth: SLACK_OAUTH },
  hosts: ["slack.com"],
  tools: [...conversationTools, ...chatTools],
  triage: {
    directed: [
      {
        tool: "slack_post_message",
        package: PACKAGE,
        why: "a post reaches the members of one channel in the tenant's own workspace (people who joined or were invited, Slack Connect partners included), not a public audience under the operator's brand",
      },
      {
        tool: "slack_reply_in_thread",
        package: PACKAGE,
        why: "a reply reaches the people following one thread, or with reply_broadcast that channel's members, in the tenant's own workspace; it is a conversation with invited members, not a publication",
      },
    ],
  },
  bind(config, host): SlackEnv {
    const egress = host.egress({
      hosts: [new URL(config.baseUrl).hostname],
      credential: { header: "authorization", scheme: "Bearer", credentialRef: config.credentialRef },
    });
    return {
      slack: createSlackClient({ baseUrl: config.baseUrl.replace(/\/+$/, ""), egress }),
      maxItems: config.maxItems,
    };
  },
});
