import { createToolkitHost, type ToolkitEgressRequest, type ToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { SLACK_OAUTH, slackToolkit } from "./toolkit.js";

const WRITES = ["slack_post_message", "slack_reply_in_thread"];

describe("the Slack toolkit as data", () => {
  it("declares its four tools, vendor-prefixed, in communication, with no network and no credential", () => {
    const tools = slackToolkit.declarations();
    expect(tools.map((tool) => tool.name)).toEqual([
      "slack_list_channels",
      "slack_read_history",
      "slack_post_message",
      "slack_reply_in_thread",
    ]);
    for (const tool of tools) {
      expect(tool.category).toBe("communication");
      expect(tool.provenance).toBe("package:@toolreg/tools-slack");
    }
  });

  it("gates each write for approval under the seam's key, and claims no deduplication Slack does not do", () => {
    for (const tool of slackToolkit.declarations()) {
      const writes = WRITES.includes(tool.name);
      expect(tool.effect, tool.name).toBe(writes ? "external-write" : "read");
      expect(tool.approval, tool.name).toBe(writes ? "always" : "never");
      expect(tool.idempotencyKey, tool.name).toBe(writes);
      expect(tool.upstreamDeduplicates, tool.name).toBe(false);
      expect(tool.overrides, tool.name).toEqual([]);
    }
  });

  it("names the OAuth scopes each tool needs", () => {
    expect(Object.fromEntries(slackToolkit.tools.map((tool) => [tool.name, tool.oauthScopes]))).toEqual({
      slack_list_channels: ["channels:read", "groups:read"],
      slack_read_history: ["channels:history", "groups:history"],
      slack_post_message: ["chat:write"],
      slack_reply_in_thread: ["chat:write"],
    });
  });

  it("triages every write as directed, one named row each, and nothing else", () => {
    const directed = slackToolkit.triage?.directed ?? [];
    expect(slackToolkit.triage?.publishing ?? []).toEqual([]);
    expect(directed.map((row) => row.tool).sort()).toEqual([...WRITES].sort());
    for (const row of directed) {
      expect(row.package).toBe("@toolreg/tools-slack");
      expect(row.why.length).toBeGreaterThan(40);
    }
  });

  it("takes a token or Slack's OAuth v2, sent as a bearer token", () => {
    expect(slackToolkit.auth).toEqual({
      kind: "token-or-oauth",
      header: "authorization",
      scheme: "Bearer",
      oauth: SLACK_OAUTH,
    });
    expect(SLACK_OAUTH).toEqual({
      authorizeUrl: "https://slack.com/oauth/v2/authorize",
      tokenUrl: "https://slack.com/api/oauth.v2.access",
      scopeSeparator: ",",
    });
  });
});

describe("the Slack toolkit's configuration", () => {
  it("defaults to slack.com's Web API, the credential named slack and 100 items", () => {
    expect(slackToolkit.parseConfig({})).toEqual({
      credentialRef: "slack",
      baseUrl: "https://slack.com/api",
      maxItems: 100,
    });
    // The default API lives on the one host the toolkit declares.
    expect(slackToolkit.hosts).toEqual([new URL(slackToolkit.parseConfig({}).baseUrl).hostname]);
  });

  it("names each bad field, and takes no field it does not know (a token typed into the config)", () => {
    expect(() => slackToolkit.parseConfig({ maxItems: 0 })).toThrow(/maxItems/);
    expect(() => slackToolkit.parseConfig({ baseUrl: "ftp://slack.com/api" })).toThrow(/baseUrl/);
    expect(() => slackToolkit.parseConfig({ token: "xoxb-1" })).toThrow(/token/);
  });

  it("asks its host for egress to the API's host alone, with the configured credential injected there", async () => {
    const host = createToolkitHost();
    const asked: ToolkitEgressRequest[] = [];
    const spying: ToolkitHost = {
      ...host,
      egress(request = {}) {
        asked.push(request);
        return host.egress(request);
      },
    };
    const tools = await slackToolkit.build(
      { baseUrl: "https://slack.example.test/api/", credentialRef: "tenant-slack" },
      spying,
      { exclude: WRITES },
    );
    await host.close();
    expect(tools.map((tool) => tool.name)).toEqual(["slack_list_channels", "slack_read_history"]);
    expect(asked).toEqual([
      {
        hosts: ["slack.example.test"],
        credential: { header: "authorization", scheme: "Bearer", credentialRef: "tenant-slack" },
      },
    ]);
  });
});
