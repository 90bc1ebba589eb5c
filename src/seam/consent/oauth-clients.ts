/**
 * @module Which OAuth app toolreg is at each vendor, for a tenant: the tenant's own when it brought one (its
 * client id and secret kept as the tenant's credential `oauth-app:<provider>`), else the deployment's. The
 * endpoints come from the toolkits' code, never from the store: a changed row must not send a refresh
 * token and a client secret somewhere else.
 */
import type { CredentialStore } from "../../ports/credential-store.js";
import type { OAuthApp } from "./token-endpoint.js";

/** A vendor's OAuth endpoints, as a toolkit declares them (its `OAuthEndpoints`). */
export interface OAuthProviderEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  /** How the vendor joins scopes in the `scope` parameter; a space unless it says otherwise. */
  scopeSeparator?: " " | ",";
  /**
   * The authorization server's issuer identifier. When given, a callback carrying `iss` (RFC 9207) must name
   * it: one callback serves every vendor, so an answer from another server is refused (a mix-up attack).
   */
  issuer?: string;
  /**
   * Scopes asked for in every authorization request besides the tools' own, and never required of a grant:
   * Atlassian issues a refresh token only to a request that asks for `offline_access`.
   */
  requestAlways?: readonly string[];
}

/** An app at a vendor, with the vendor's endpoints. */
export interface OAuthClient {
  provider: string;
  endpoints: OAuthProviderEndpoints;
  app: OAuthApp;
  /** Whose app it is: the tenant's own, or the deployment's. */
  owner: "tenant" | "deployment";
}

/** The ref under which a tenant's own OAuth app for `provider` is stored: client id as account, secret as secret. */
export function oauthAppRef(provider: string): string {
  return `oauth-app:${provider}`;
}

export interface OAuthClientsOptions {
  /** The vendors' endpoints, by provider (a toolkit id). */
  providers: Readonly<Record<string, OAuthProviderEndpoints>>;
  /** The deployment's apps, by provider. */
  apps?: Readonly<Record<string, OAuthApp>>;
  /** Where tenants' own apps are kept. */
  credentials?: CredentialStore;
}

export class OAuthClients {
  readonly #options: OAuthClientsOptions;

  constructor(options: OAuthClientsOptions) {
    this.#options = options;
  }

  /** The providers whose endpoints are known. */
  providers(): string[] {
    return Object.keys(this.#options.providers);
  }

  /** The app to use for `tenantId` at `provider`, or undefined when neither the tenant nor the deployment has one. */
  async clientFor(tenantId: string, provider: string): Promise<OAuthClient | undefined> {
    const endpoints = Object.hasOwn(this.#options.providers, provider)
      ? this.#options.providers[provider]
      : undefined;
    if (!endpoints) return undefined;
    const own = await this.#options.credentials?.get({ tenantId, ref: oauthAppRef(provider) });
    if (own?.secrets && own.account) {
      return {
        provider,
        endpoints,
        app: { clientId: own.account, clientSecret: own.secrets.accessToken },
        owner: "tenant",
      };
    }
    const deployment = Object.hasOwn(this.#options.apps ?? {}, provider)
      ? this.#options.apps?.[provider]
      : undefined;
    return deployment ? { provider, endpoints, app: deployment, owner: "deployment" } : undefined;
  }
}
