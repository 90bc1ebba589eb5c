/** @module The Slack toolkit's configuration, as a config file or a host gives it. */
import { z } from "zod";

export const SlackConfigSchema = z.strictObject({
  credentialRef: z.string().min(1).default("slack").meta({
    description:
      "the credential Slack's requests carry, resolved per call: a bot token (xoxb-) or a user token from Slack's OAuth v2",
  }),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .default("https://slack.com/api")
    .meta({
      description: "the Web API root, where https://slack.com/api/METHOD lives; a test points it at a fake",
    }),
  maxItems: z
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .meta({ description: "the most channels or messages a read tool returns in one call" }),
});

export type SlackConfig = z.output<typeof SlackConfigSchema>;
