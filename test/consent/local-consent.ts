/**
 * @module A vendor toolkit as shipped, its OAuth consent sent to the test's local provider in place of the
 * vendor's authorization server: the query the vendor's authorize URL carries (an audience, a prompt) stays
 * on it, `requestAlways` stays, and so does the toolkit's own choice of when to ask for consent at all.
 */
import { defineToolkit, type Toolkit } from "../../src/tools/toolkit/define-toolkit.js";
import type { ProviderFixture } from "./oidc-provider-fixture.js";

export function consentingLocally<Config, Env>(
  toolkit: Toolkit<Config, Env>,
  provider: ProviderFixture,
): Toolkit<Config, Env> {
  const shipped = toolkit.auth;
  if (shipped.kind !== "token-or-oauth" && shipped.kind !== "oauth") {
    throw new Error(`the ${toolkit.id} toolkit asks no one for consent`);
  }
  const local = {
    ...shipped.oauth,
    authorizeUrl: `${provider.authorizeUrl}${new URL(shipped.oauth.authorizeUrl).search}`,
    tokenUrl: provider.tokenUrl,
  };
  const endpoints = toolkit.oauthEndpoints;
  return defineToolkit({
    ...toolkit,
    auth: { ...shipped, oauth: local },
    ...(endpoints && {
      oauthEndpoints: (config: Config) => (endpoints(config) === undefined ? undefined : local),
    }),
  });
}
