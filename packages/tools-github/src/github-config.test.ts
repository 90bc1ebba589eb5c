import { describe, expect, it } from "vitest";
import { GithubConfigSchema, githubOAuthEndpoints } from "./github-config.js";

const endpointsOf = (config: { baseUrl?: string; webUrl?: string }) =>
  githubOAuthEndpoints(GithubConfigSchema.parse(config));

describe("githubOAuthEndpoints", () => {
  it.each([
    ["github.com, by default", {}, "https://github.com"],
    ["github.com for api.github.com", { baseUrl: "https://api.github.com/" }, "https://github.com"],
    [
      "SUBDOMAIN.ghe.com for api.SUBDOMAIN.ghe.com",
      { baseUrl: "https://api.octo.ghe.com" },
      "https://octo.ghe.com",
    ],
    [
      "a GitHub Enterprise Server's own origin",
      { baseUrl: "https://ghe.corp.example/api/v3" },
      "https://ghe.corp.example",
    ],
    ["that origin's port", { baseUrl: "http://127.0.0.1:8443/api/v3/" }, "http://127.0.0.1:8443"],
  ])("signs users in at %s", (_case, config, web) => {
    expect(endpointsOf(config)).toEqual({
      authorizeUrl: `${web}/login/oauth/authorize`,
      tokenUrl: `${web}/login/oauth/access_token`,
    });
  });

  it.each([
    "https://api.github.com.attacker.example",
    "https://api.two.levels.ghe.com",
    "https://api.octo.ghe.com.attacker.example",
  ])("does not take %s for GitHub's own API host: its users sign in at its origin", (baseUrl) => {
    expect(endpointsOf({ baseUrl }).authorizeUrl).toBe(`${new URL(baseUrl).origin}/login/oauth/authorize`);
  });

  it("takes webUrl over what the API host suggests, with or without a trailing slash", () => {
    const configured = { baseUrl: "https://api.github.com", webUrl: "https://login.corp.example/" };
    expect(endpointsOf(configured)).toEqual({
      authorizeUrl: "https://login.corp.example/login/oauth/authorize",
      tokenUrl: "https://login.corp.example/login/oauth/access_token",
    });
    expect(endpointsOf({ ...configured, webUrl: "https://login.corp.example" })).toEqual(
      endpointsOf(configured),
    );
  });

  it("refuses a webUrl that is not http(s)", () => {
    expect(GithubConfigSchema.safeParse({ webUrl: "javascript:alert(1)" }).success).toBe(false);
  });
});
