/**
 * @module The SDK's `OAuthClientProvider` for an imported MCP server, over toolreg's stores: its tokens
 * and its registered client are sealed in the credential store, and sending the user to the
 * authorization server is opening a consent in the consent store, the same one vendor toolkits park
 * calls under. The user opens toolreg's start link; the server's `/oauth/callback` completes it
 * (`McpConsentExchange`). The PKCE verifier goes with the consent (sealed beside its state).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CredentialKey, StoredCredential } from "../../../ports/credential-store.js";
import { hashState } from "../../../seam/consent/authorization-request.js";
import type { McpOAuthHost, McpOAuthSettings } from "./mcp-oauth-settings.js";

/** Where a consent that was opened sends its user: toolreg's start link. */
export interface PendingAuthorization {
  consentId: string;
  consentUrl: string;
  /** The user who must open it, signed in to the console. */
  principalId: string;
  expiresAt: number;
}

/** The host's stores and links, with the import's clock and credential references. */
export type ProviderHost = McpOAuthHost & { now(): number; resolveSecret(ref: string): Promise<string> };

export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #server: string;
  readonly #settings: McpOAuthSettings;
  readonly #host: ProviderHost;
  readonly #onAuthorization: (pending: PendingAuthorization) => void;
  /** The verifier of the flow under way, from `saveCodeVerifier` to `redirectToAuthorization`; or a consent's, when exchanging. */
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #pending: PendingAuthorization | undefined;
  /** Scopes a 403 `insufficient_scope` asked for that the stored tokens lack: a refresh cannot add them. */
  #stepUp: readonly string[] | undefined;

  constructor(input: {
    server: string;
    settings: McpOAuthSettings;
    host: ProviderHost;
    onAuthorization?: (pending: PendingAuthorization) => void;
    /** Set when the provider completes a consent: the verifier kept with it. */
    codeVerifier?: string;
    /** What discovery found when the consent was opened. */
    discovery?: OAuthDiscoveryState | undefined;
  }) {
    this.#server = input.server;
    this.#settings = input.settings;
    this.#host = input.host;
    this.#onAuthorization = input.onAuthorization ?? (() => {});
    this.#verifier = input.codeVerifier;
    this.#discovery = input.discovery;
  }

  /** The provider (and the credential ref) the tokens are stored under: `mcp:<server>`. */
  get provider(): string {
    return `mcp:${this.#server}`;
  }

  /** The consent opened last, while it has not expired. */
  get pending(): PendingAuthorization | undefined {
    return this.#pending && this.#pending.expiresAt > this.#host.now() ? this.#pending : undefined;
  }

  get redirectUrl(): string {
    return this.#host.redirectUri();
  }

  get clientMetadataUrl(): string | undefined {
    return this.#settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { scopes, tokenEndpointAuthMethod } = this.#settings;
    return {
      client_name: `toolreg (${this.#server})`,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(tokenEndpointAuthMethod ? { token_endpoint_auth_method: tokenEndpointAuthMethod } : {}),
      ...(scopes && scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  state(): string {
    return randomBytes(32).toString("base64url");
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecretRef } = this.#settings;
    if (clientId !== undefined) {
      // Pre-registered: what the operator configured, its secret resolved at each use.
      const secret = clientSecretRef ? await this.#host.resolveSecret(clientSecretRef) : undefined;
      return { client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
    }
    const stored = await this.#read(this.#clientKey());
    return stored?.secrets
      ? (JSON.parse(stored.secrets.accessToken) as OAuthClientInformationMixed)
      : undefined;
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    if (this.#settings.clientId !== undefined) return;
    await this.#host.credentials.put({
      ...this.#clientKey(),
      kind: "token",
      provider: this.provider,
      account: information.client_id,
      secrets: { accessToken: JSON.stringify(information) },
      connectedBy: `mcp:${this.#server}`,
      at: this.#host.now(),
    });
  }

  /**
   * The server said the token lacks scopes (403 `insufficient_scope`): until the user consents to them,
   * the refresh token is not offered, so the SDK asks for a new authorization instead of refreshing into
   * the same narrow grant.
   */
  stepUp(scopes: readonly string[]): void {
    this.#stepUp = scopes;
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.#read(this.#tokenKey());
    if (!stored?.secrets) return undefined;
    const granted = new Set(stored.scopes);
    const short = this.#stepUp?.some((scope) => !granted.has(scope)) === true;
    const left =
      stored.expiresAt === undefined ? undefined : Math.floor((stored.expiresAt - this.#host.now()) / 1000);
    return {
      access_token: stored.secrets.accessToken,
      token_type: "Bearer",
      ...(stored.secrets.refreshToken && !short ? { refresh_token: stored.secrets.refreshToken } : {}),
      ...(left === undefined ? {} : { expires_in: Math.max(0, left) }),
      ...(stored.scopes.length > 0 ? { scope: stored.scopes.join(" ") } : {}),
      ...(stored.account ? { issuer: stored.account } : {}),
    };
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const previous = await this.#read(this.#tokenKey());
    const now = this.#host.now();
    await this.#host.credentials.put({
      ...this.#tokenKey(),
      kind: "oauth",
      provider: this.provider,
      scopes: tokens.scope ? tokens.scope.split(" ").filter(Boolean) : (previous?.scopes ?? []),
      // The authorization server the tokens are bound to: the SDK stamps it, and checks it before a refresh.
      account: tokens.issuer ?? previous?.account,
      expiresAt: tokens.expires_in === undefined ? undefined : now + tokens.expires_in * 1000,
      // A server that does not rotate refresh tokens sends none back: the old one stays good.
      secrets: {
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token ?? previous?.secrets?.refreshToken,
      },
      connectedBy: this.#settings.principalId,
      at: now,
    });
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error("no authorization is under way");
    return this.#verifier;
  }

  /**
   * Opens a consent for the configured user with this authorization URL (its state hashed, its verifier
   * kept sealed with it) instead of opening a browser: the user is given toolreg's start link.
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const state = authorizationUrl.searchParams.get("state");
    const verifier = this.#verifier;
    const challenge = authorizationUrl.searchParams.get("code_challenge");
    if (!state || verifier === undefined || challenge !== sha256(verifier)) {
      throw new Error(
        `the authorization request for the MCP server ${this.#server} is not the one under way`,
      );
    }
    this.#verifier = undefined;
    const now = this.#host.now();
    const { request } = await this.#host.consents.open({
      tenantId: this.#settings.tenantId,
      id: randomUUID(),
      principalId: this.#settings.principalId,
      credentialRef: this.provider,
      provider: this.provider,
      scopes: (authorizationUrl.searchParams.get("scope") ?? "").split(" ").filter(Boolean),
      stateHash: hashState(state),
      codeVerifier: verifier,
      redirectUri: this.redirectUrl,
      authorizationUrl: authorizationUrl.href,
      createdAt: now,
      expiresAt: now + (this.#host.consentTtlMs ?? 10 * 60_000),
    });
    this.#pending = {
      consentId: request.id,
      consentUrl: this.#host.consentLink(request.id),
      principalId: request.principalId,
      expiresAt: request.expiresAt,
    };
    this.#onAuthorization(this.#pending);
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    const at = this.#host.now();
    const reason = "the authorization server refused it";
    if (scope === "all" || scope === "tokens") {
      await this.#host.credentials.revoke({ ...this.#tokenKey(), at, reason });
    }
    if ((scope === "all" || scope === "client") && this.#settings.clientId === undefined) {
      await this.#host.credentials.revoke({ ...this.#clientKey(), at, reason });
    }
    if (scope === "all" || scope === "discovery") this.#discovery = undefined;
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /**
   * The import's tokens: per user, that principal's own credential; otherwise the tenant's, which every
   * call the import lets through goes out with.
   */
  #tokenKey(): CredentialKey {
    const { tenantId, principalId, per } = this.#settings;
    return { tenantId, ...(per === "user" ? { principalId } : {}), ref: this.provider };
  }

  #clientKey(): CredentialKey {
    return { tenantId: this.#settings.tenantId, ref: `${this.provider}:client` };
  }

  async #read(key: CredentialKey): Promise<StoredCredential | undefined> {
    const stored = await this.#host.credentials.get(key);
    return stored && stored.revokedAt === undefined ? stored : undefined;
  }
}

function sha256(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}
