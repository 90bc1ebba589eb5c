/**
 * @module The Confluence toolkit: search with CQL, read a page as markdown, list spaces, and (each gated)
 * create and update pages and comment, every request through toolreg's egress to the configured site or
 * Atlassian's OAuth gateway only, with the credential injected there: a stored `email:api_token` as HTTP
 * Basic, an OAuth 2.0 (3LO) access token as Bearer.
 */
import { basicCredential, defineToolkit } from "toolreg/toolkit";
import { comment } from "./comments/comment.js";
import { createConfluenceClient } from "./confluence-client.js";
import { apiRootOf, type ConfluenceConfig, ConfluenceConfigSchema } from "./confluence-config.js";
import type { ConfluenceEnv } from "./confluence-env.js";
import { createPage } from "./pages/create-page.js";
import { getPage } from "./pages/get-page.js";
import { updatePage } from "./pages/update-page.js";
import { search } from "./search/search.js";
import { listSpaces } from "./spaces/list-spaces.js";

const PACKAGE = "@toolreg/tools-confluence";

/**
 * Atlassian's OAuth 2.0 (3LO): `audience=api.atlassian.com` and `prompt=consent` ride on the authorize URL
 * (developer.atlassian.com/cloud/confluence/oauth-2-3lo-apps/); the token endpoint is the same for every site.
 * A refresh token is issued only to a request that asks for `offline_access`, which no tool needs itself.
 */
export const ATLASSIAN_OAUTH = {
  authorizeUrl: "https://auth.atlassian.com/authorize?audience=api.atlassian.com&prompt=consent",
  tokenUrl: "https://auth.atlassian.com/oauth/token",
  requestAlways: ["offline_access"],
} as const;

/** `email:api_token` goes as Basic; anything else (an OAuth access token) as Bearer. */
const atlassianCredential = basicCredential({
  otherwise: "bearer",
  describe: "your Atlassian account e-mail and API token as email:token",
});

export const confluenceToolkit = defineToolkit<ConfluenceConfig, ConfluenceEnv>({
  id: "confluence",
  version: "0.1.0",
  package: PACKAGE,
  description:
    "Confluence Cloud: search with CQL, read pages as markdown, list spaces, create and update pages, comment.",
  config: ConfluenceConfigSchema,
  auth: { kind: "token-or-oauth", header: "authorization", oauth: ATLASSIAN_OAUTH },
  // A 3LO token is accepted only at api.atlassian.com/ex/confluence/{cloudId} (developer.atlassian.com/
  // cloud/oauth/getting-started/making-calls-to-api): a deployment naming its site by siteUrl would send
  // each new token to the site, have it refused (401) and ask for consent again, forever. It asks no one
  // and needs a stored email:token instead.
  oauthEndpoints: (config) => (config.cloudId === undefined ? undefined : ATLASSIAN_OAUTH),
  hosts: ["*.atlassian.net", "api.atlassian.com"],
  tools: [search, getPage, listSpaces, createPage, updatePage, comment],
  triage: {
    directed: [
      {
        tool: `${PACKAGE}/*`,
        package: PACKAGE,
        why: "a page or comment lands in a space of the tenant's own Confluence site, seen by the people the site's licence and the space's permissions admit; a space made public is an administrator's setting of that space, not something these tools do",
      },
    ],
  },
  bind(config, host): ConfluenceEnv {
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
      confluence: createConfluenceClient(egress, apiRoot),
      siteUrl: config.siteUrl?.replace(/\/+$/, ""),
      maxItems: config.maxItems,
      maxPageChars: config.maxPageChars,
    };
  },
});
