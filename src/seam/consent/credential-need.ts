/**
 * @module What a tool built from a toolkit carries about the credential it runs with: whose vendor, which
 * `credentialRef`, how a missing one is got (the user's consent, or an operator configuring it), and the
 * scopes the tool needs. Kept under a symbol, so it is in no hash, no JSON and no declaration a model sees.
 */
import type { OAuthProviderEndpoints } from "./oauth-clients.js";

export interface CredentialNeed {
  /** The vendor: the toolkit's id. */
  provider: string;
  credentialRef: string;
  /** The toolkit's auth kind: only `token-or-oauth` and `oauth` can ask the user for consent. */
  auth: "api-key" | "token" | "token-or-oauth" | "oauth";
  /** Where consent is asked; undefined for a toolkit that cannot ask. */
  oauth: OAuthProviderEndpoints | undefined;
  /** The vendor's OAuth scopes this tool needs. */
  scopes: readonly string[];
}

const NEED = Symbol.for("toolreg.credentialNeed");

/** A frozen copy of `tool` carrying `need`. */
export function withCredentialNeed<T extends object>(tool: T, need: CredentialNeed): T {
  return Object.freeze({
    ...tool,
    [NEED]: Object.freeze({ ...need, scopes: Object.freeze([...need.scopes]) }),
  });
}

/** The credential a tool needs, if it was built from a toolkit that reaches a vendor account. */
export function credentialNeedOf(tool: object): CredentialNeed | undefined {
  return (tool as { [NEED]?: CredentialNeed })[NEED];
}

/** How an operator gives a credential that no user can consent to, said the same way everywhere. */
export function howToConfigure(need: Pick<CredentialNeed, "credentialRef" | "auth">): string {
  const what = need.auth === "api-key" ? "an API key" : "a token";
  return `an operator must store ${what} for it: toolreg credentials connect ${need.credentialRef} (or point the toolkit's credentialRef at env:NAME)`;
}

/** The OAuth endpoints of every vendor whose tools can ask for consent, by provider: what refreshes and consents use. */
export function oauthProvidersOf(tools: Iterable<object>): Record<string, OAuthProviderEndpoints> {
  const providers: Record<string, OAuthProviderEndpoints> = {};
  for (const tool of tools) {
    const need = credentialNeedOf(tool);
    if (need?.oauth && !Object.hasOwn(providers, need.provider)) providers[need.provider] = need.oauth;
  }
  return providers;
}
