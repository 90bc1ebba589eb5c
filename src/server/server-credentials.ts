/**
 * @module The server's stored credentials and consent, sealed in its stores under the operator's key: the
 * credential and consent stores, the resolver chain its calls carry (the host's links first, such as the
 * CLI's `env:NAME`, then the store), and what the seam's consent step needs: the start link a user opens at
 * `<publicUrl>/oauth/start/<consentId>`, and the callback at `<publicUrl>/oauth/callback`.
 */
import type { CredentialStore } from "../ports/credential-store.js";
import type { SealedStores } from "../ports/deployment-stores.js";
import type { RegistryView } from "../registry/registry.js";
import { type ConsentBinding, createConsentBinding } from "../seam/consent/consent-binding.js";
import type { ConsentExchanges } from "../seam/consent/consent-exchange.js";
import type { ConsentOptions } from "../seam/consent/consent-options.js";
import { type CredentialInspector, chainCredentialResolvers } from "../seam/consent/credential-inspector.js";
import { oauthProvidersOf } from "../seam/consent/credential-need.js";
import { OAuthClients } from "../seam/consent/oauth-clients.js";
import { createStoreCredentialResolver } from "../seam/consent/store-credential-resolver.js";
import type { OAuthApp, OAuthTransport } from "../seam/consent/token-endpoint.js";
import type { CredentialResolver } from "../seam/context.js";

/** Where the provider sends a user back after consent. */
export const CALLBACK_PATH = "/oauth/callback";
/** Where a user starts a consent, signed in to the console: `<START_PATH>/<consentId>`. */
export const START_PATH = "/oauth/start";

export interface ServerCredentialsOptions {
  /** The operator's 32-byte key the secrets are sealed under. */
  key: Uint8Array;
  /** The server's origin as a user's browser reaches it; a function when it is known only once listening. */
  publicUrl: string | (() => string);
  /** How token endpoints are reached: an egress client allowed to reach them. */
  transport: OAuthTransport;
  /** Resolvers asked before the store, e.g. the environment's `env:NAME`. */
  before?: readonly CredentialResolver[];
  /** The deployment's OAuth apps, by provider (a toolkit id); a tenant may bring its own. */
  apps?: Readonly<Record<string, OAuthApp>>;
  /** Consents imported MCP servers complete with their own OAuth clients, by provider (`mcp:<name>`). */
  exchanges?: ConsentExchanges;
  stateTtlMs?: number;
  callTtlMs?: number;
}

export interface ServerCredentials {
  store: CredentialStore;
  resolver: CredentialInspector;
  consent: ConsentOptions;
  /** Ties a consent to the browser its start link was opened in. */
  binding: ConsentBinding;
}

export function openServerCredentials(
  sealed: SealedStores,
  registry: RegistryView,
  options: ServerCredentialsOptions,
): ServerCredentials {
  const { credentials: store, consents: requests } = sealed;
  const clients = new OAuthClients({
    providers: oauthProvidersOf(registry.list()),
    ...(options.apps ? { apps: options.apps } : {}),
    credentials: store,
  });
  const resolver = chainCredentialResolvers(
    ...(options.before ?? []),
    createStoreCredentialResolver({ store, clients, transport: options.transport }),
  );
  const origin = () =>
    (typeof options.publicUrl === "function" ? options.publicUrl() : options.publicUrl).replace(/\/$/, "");
  const callbackUrl = () => `${origin()}${CALLBACK_PATH}`;
  return {
    store,
    resolver,
    binding: createConsentBinding(options.key, callbackUrl),
    consent: {
      requests,
      credentials: store,
      resolver,
      clients,
      transport: options.transport,
      redirectUri: callbackUrl,
      consentLink: (consentId) => `${origin()}${START_PATH}/${encodeURIComponent(consentId)}`,
      ...(options.exchanges ? { exchanges: options.exchanges } : {}),
      ...(options.stateTtlMs ? { stateTtlMs: options.stateTtlMs } : {}),
      ...(options.callTtlMs ? { callTtlMs: options.callTtlMs } : {}),
    },
  };
}
