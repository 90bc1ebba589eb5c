/**
 * @module The GitHub toolkit: 44 tools, vendor-prefixed, every request through toolreg's egress to the
 * configured API host only, with the credential injected there. A tenant connects with a personal access
 * token, a GitHub App installation token or OAuth; a deployment narrows the tools with include/exclude.
 */
import { defineToolkit } from "toolreg/toolkit";
import { githubAppCredential } from "./app-auth.js";
import { contentTools } from "./contents/index.js";
import { createGithubClient } from "./github-client.js";
import { GithubConfigSchema, githubOAuthEndpoints } from "./github-config.js";
import type { GithubEnv } from "./github-env.js";
import { GITHUB_IMPLIED_SCOPES } from "./github-scopes.js";
import { issueTools } from "./issues/index.js";
import { projectTools } from "./projects/index.js";
import { pullTools } from "./pulls/index.js";
import { releaseTools } from "./releases/index.js";
import { workflowTools } from "./workflows/index.js";
import { jobLogReader } from "./workflows/job-log-tail.js";

export const GITHUB_OAUTH = githubOAuthEndpoints({ baseUrl: "https://api.github.com" });

export const githubToolkit = defineToolkit({
  id: "github",
  version: "0.1.0",
  package: "@toolreg/tools-github",
  description: "GitHub: issues, pull requests, code, projects, releases and Actions workflows.",
  config: GithubConfigSchema,
  auth: {
    kind: "token-or-oauth",
    header: "authorization",
    scheme: "Bearer",
    oauth: GITHUB_OAUTH,
    impliedScopes: GITHUB_IMPLIED_SCOPES,
  },
  // An App's installation is the tenant's, not a user's: there is no one to ask for consent.
  oauthEndpoints: (config) => (config.app ? undefined : githubOAuthEndpoints(config)),
  hosts: ["api.github.com"],
  tools: [...issueTools, ...pullTools, ...contentTools, ...projectTools, ...releaseTools, ...workflowTools],
  triage: {
    directed: [
      {
        tool: "@toolreg/tools-github/*",
        package: "@toolreg/tools-github",
        why: "a repository write reaches the repository's collaborators and watchers, not a public audience under the operator's brand; whether the repository is public is a property of the repository",
      },
    ],
  },
  bind(config, host): GithubEnv {
    const baseUrl = config.baseUrl.replace(/\/$/, "");
    const egress = host.egress({
      hosts: [new URL(baseUrl).hostname],
      // An App's requests carry an installation token minted from its key; otherwise the token as resolved.
      credential: config.app
        ? githubAppCredential(config.app, baseUrl, host)
        : { header: "authorization", scheme: "Bearer", credentialRef: config.credentialRef },
    });
    // Signed log downloads: their own client, with no credential, to the log hosts alone.
    const logs = host.egress({ hosts: config.logHosts });
    return {
      github: createGithubClient({ baseUrl, egress }),
      maxItems: config.maxItems,
      readJobLog: jobLogReader({ baseUrl, api: egress, logs, logHosts: config.logHosts }),
    };
  },
});
