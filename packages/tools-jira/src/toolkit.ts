/**
 * @module The Jira toolkit: search, read, create, update, transition and comment on Jira Cloud issues
 * through REST API v3, every request through toolreg's egress to the configured site (or Atlassian's API
 * gateway) only, with the credential injected there. A tenant stores an Atlassian account's e-mail and API
 * token (sent as HTTP Basic), or connects through Atlassian's OAuth 2.0 (3LO) (sent as Bearer).
 */
import { basicCredential, defineToolkit } from "toolreg/toolkit";
import { comment } from "./issues/comment.js";
import { createIssue } from "./issues/create-issue.js";
import { getIssue } from "./issues/get-issue.js";
import { searchIssues } from "./issues/search-issues.js";
import { updateIssue } from "./issues/update-issue.js";
import { createJiraClient } from "./jira-client.js";
import { ATLASSIAN_API_HOST, apiRootOf, JiraConfigSchema } from "./jira-config.js";
import type { JiraEnv } from "./jira-env.js";
import { listProjects } from "./projects/list-projects.js";
import { listTransitions } from "./transitions/list-transitions.js";
import { transitionIssue } from "./transitions/transition-issue.js";

const PACKAGE = "@toolreg/tools-jira";

/**
 * Atlassian's OAuth 2.0 (3LO) authorization-code flow (developer.atlassian.com/cloud/jira/platform/
 * oauth-2-3lo-apps): the authorize URL names the API audience and asks for consent every time; the query
 * parameters here are kept when the consent step adds its own. Every consent also asks for
 * `offline_access`, the only way Atlassian issues a refresh token; no tool needs it as its own scope.
 */
export const ATLASSIAN_OAUTH = {
  authorizeUrl: "https://auth.atlassian.com/authorize?audience=api.atlassian.com&prompt=consent",
  tokenUrl: "https://auth.atlassian.com/oauth/token",
  requestAlways: ["offline_access"],
} as const;

/** A stored `email:token` goes as HTTP Basic; an OAuth access token (no colon) as Bearer. */
const atlassianCredential = basicCredential({
  otherwise: "bearer",
  describe: "your Atlassian account e-mail and API token as email:token",
});

export const jiraToolkit = defineToolkit({
  id: "jira",
  version: "0.1.0",
  package: PACKAGE,
  description:
    "Jira Cloud: search issues with JQL, read them, list projects and transitions, create, update, transition and comment on issues; rich text as markdown.",
  config: JiraConfigSchema,
  auth: { kind: "token-or-oauth", header: "authorization", oauth: ATLASSIAN_OAUTH },
  // A 3LO token is accepted only at api.atlassian.com/ex/jira/{cloudId} (developer.atlassian.com/cloud/
  // oauth/getting-started/making-calls-to-api): a deployment naming its site by siteUrl cannot use one, so
  // it asks no one for consent (which would loop: each token refused with 401, consent asked again) and
  // needs a stored email:token instead.
  oauthEndpoints: (config) => (config.cloudId === undefined ? undefined : ATLASSIAN_OAUTH),
  hosts: [ATLASSIAN_API_HOST, "*.atlassian.net"],
  tools: [
    searchIssues,
    getIssue,
    listProjects,
    listTransitions,
    createIssue,
    updateIssue,
    transitionIssue,
    comment,
  ],
  triage: {
    directed: [
      {
        tool: `${PACKAGE}/*`,
        package: PACKAGE,
        why: "a Jira site is licensed seat by seat: an issue, an edit, a transition or a comment reaches the site's own users (colleagues and invited collaborators), no strangers and no public audience under the operator's brand",
      },
    ],
  },
  bind(config, host): JiraEnv {
    const apiRoot = apiRootOf(config);
    const egress = host.egress({
      hosts: [new URL(apiRoot).hostname],
      credential: {
        header: "authorization",
        credentialRef: config.credentialRef,
        exchange: atlassianCredential,
      },
    });
    return {
      jira: createJiraClient({
        apiRoot,
        egress,
        identity: {
          label: "Jira",
          whenRefused: `the credential "${config.credentialRef}" must be an Atlassian account e-mail and API token stored as email:token, or a current OAuth connection; connect Jira again or replace the token`,
        },
      }),
      siteUrl: config.siteUrl?.replace(/\/+$/, ""),
      maxItems: config.maxItems,
      maxPages: config.maxPages,
    };
  },
});
