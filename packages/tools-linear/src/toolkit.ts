/**
 * @module The Linear toolkit: search, read, create and update issues, comment, list teams and their
 * workflow states, over Linear's GraphQL API. Every request goes through toolreg's egress to the
 * configured endpoint's host only, with the deployment's personal API key injected there bare in
 * Authorization (Linear takes an API key without "Bearer"; OAuth tokens take it). Token only: a missing
 * key fails naming the credential to configure, it never waits for a user's consent.
 */
import { defineToolkit } from "toolreg/toolkit";
import { comment, createIssue, getIssue, searchIssues, updateIssue } from "./issues/index.js";
import { createLinearClient } from "./linear-client.js";
import { LINEAR_GRAPHQL_URL, LinearConfigSchema } from "./linear-config.js";
import type { LinearEnv } from "./linear-env.js";
import { listStates } from "./teams/list-states.js";
import { listTeams } from "./teams/list-teams.js";

const PACKAGE = "@toolreg/tools-linear";

export const linearToolkit = defineToolkit({
  id: "linear",
  version: "0.1.0",
  package: PACKAGE,
  description:
    "Linear: search and read issues, create and update them, comment, list teams and workflow states.",
  config: LinearConfigSchema,
  auth: { kind: "token", header: "authorization" },
  hosts: [new URL(LINEAR_GRAPHQL_URL).hostname],
  tools: [searchIssues, getIssue, listTeams, listStates, createIssue, updateIssue, comment],
  triage: {
    directed: [
      {
        tool: `${PACKAGE}/*`,
        package: PACKAGE,
        why: "Linear has no public-broadcast surface: a workspace is licensed seat by seat, so an issue, an update or a comment reaches the tenant's colleagues in that workspace and no strangers",
      },
    ],
  },
  bind(config, host): LinearEnv {
    const egress = host.egress({
      hosts: [new URL(config.endpoint).hostname],
      credential: { header: "authorization", credentialRef: config.credentialRef },
    });
    return {
      linear: createLinearClient({ endpoint: config.endpoint, egress, credentialRef: config.credentialRef }),
      maxItems: config.maxItems,
    };
  },
});
