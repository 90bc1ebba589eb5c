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
  /**
   * Every scope each granted scope holds besides itself, followed transitively (`admin:org` holds
   * `write:org` and `read:org`): a need met by a broader grant is not asked again. Without a prototype,
   * so any scope a vendor reports can be looked up.
   */
  impliedScopes: Readonly<Record<string, readonly string[]>>;
}

const NEED = Symbol.for("toolreg.credentialNeed");

/** A frozen copy of `tool` carrying `need`, its scope implications closed transitively. */
export function withCredentialNeed<T extends object>(tool: T, need: CredentialNeed): T {
  return Object.freeze({
    ...tool,
    [NEED]: Object.freeze({
      ...need,
      scopes: Object.freeze([...need.scopes]),
      impliedScopes: closeImplications(need.impliedScopes),
    }),
  });
}

/** Each scope with every scope it holds, directly or through another: `a → b → c` gives `a: [b, c]`. */
export function closeImplications(
  implied: Readonly<Record<string, readonly string[]>>,
): Readonly<Record<string, readonly string[]>> {
  const closed: Record<string, readonly string[]> = Object.create(null);
  for (const scope of Object.keys(implied)) {
    const held = new Set<string>();
    const pending = [...(implied[scope] ?? [])];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      // A vendor's table with a cycle still ends: each scope is followed once.
      if (next === scope || held.has(next)) continue;
      held.add(next);
      if (Object.hasOwn(implied, next)) pending.push(...(implied[next] ?? []));
    }
    closed[scope] = Object.freeze([...held]);
  }
  return Object.freeze(closed);
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

/**
 * Each credential the tools use, once per provider and ref, with the scopes all its tools need: what a
 * person can connect ahead of any call.
 */
export function credentialsUsedBy(tools: Iterable<object>): CredentialNeed[] {
  const used = new Map<string, CredentialNeed>();
  for (const tool of tools) {
    const need = credentialNeedOf(tool);
    if (!need) continue;
    const key = JSON.stringify([need.provider, need.credentialRef]);
    const seen = used.get(key);
    used.set(key, seen ? { ...seen, scopes: [...new Set([...seen.scopes, ...need.scopes])] } : need);
  }
  return [...used.values()];
}

/**
 * The credential `ref` is for: the given provider's, which must use it, else the one provider whose tools
 * use it (`toolreg credentials connect` decides it the same way).
 */
export function credentialUsedFor(
  tools: Iterable<object>,
  ref: string,
  provider?: string,
): { ok: true; need: CredentialNeed } | { ok: false; message: string } {
  const candidates = credentialsUsedBy(tools).filter((need) => need.credentialRef === ref);
  const chosen =
    provider === undefined ? candidates : candidates.filter((need) => need.provider === provider);
  const [only] = chosen;
  if (chosen.length === 1 && only) return { ok: true, need: only };
  const quoted = `"${ref.slice(0, 100)}"`;
  if (candidates.length === 0)
    return { ok: false, message: `no served toolkit uses the credential ${quoted}` };
  const providers = candidates.map((need) => need.provider).join(", ");
  return {
    ok: false,
    message:
      provider === undefined
        ? `toolkits ${providers} all use ${quoted}: name one as its provider`
        : `${quoted} is the credential of ${providers}, not of ${provider.slice(0, 100)}`,
  };
}
