/**
 * @module An imported MCP server's OAuth, put together: the SDK transport's `authProvider` (tokens and
 * client in the credential store, consent through the consent store), the egress `fetch` the whole flow
 * goes through, the exchange the registry server's callback completes, and the `auth_required` answer a
 * call gets while the server waits for its user's consent.
 */
import { extractWWWAuthenticateParams, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { EgressPolicyInit } from "../../../egress/egress-policy.js";
import { ToolFailure } from "../../../errors/tool-failure.js";
import type { ConsentExchange } from "../../../seam/consent/consent-exchange.js";
import { mcpConsentExchange } from "./mcp-consent-exchange.js";
import type { McpOAuthHost, McpOAuthSettings } from "./mcp-oauth-settings.js";
import { oauthEgressFetch } from "./oauth-egress-fetch.js";
import { type PendingAuthorization, StoredOAuthProvider } from "./stored-oauth-provider.js";

export interface ImportAuthorizationInput {
  server: string;
  url: URL;
  egress: EgressPolicyInit | undefined;
  settings: McpOAuthSettings;
  host: McpOAuthHost;
  now: () => number;
  /** Resolves the pre-registered client's secret reference. */
  resolveSecret(ref: string): Promise<string>;
  /** A consent was opened: its user must open the link. */
  onAuthorization(pending: PendingAuthorization): void;
  /** Tokens were stored by a completed consent. */
  onAuthorized(): void;
}

export class ImportAuthorization {
  readonly provider: StoredOAuthProvider;
  readonly fetch: FetchLike;
  readonly exchange: ConsentExchange;
  readonly #server: string;
  readonly #now: () => number;
  readonly #close: () => Promise<void>;

  constructor(input: ImportAuthorizationInput) {
    const { server, settings } = input;
    this.#server = server;
    this.#now = input.now;
    const host = { ...input.host, now: input.now, resolveSecret: input.resolveSecret };
    this.provider = new StoredOAuthProvider({
      server,
      settings,
      host,
      onAuthorization: input.onAuthorization,
    });
    const provider = this.provider;
    const egress = oauthEgressFetch(
      input.egress ?? {},
      // Per user, the requests are that user's; otherwise the import's own.
      {
        tenantId: settings.tenantId,
        principalId: settings.per === "user" ? settings.principalId : `mcp:${server}`,
      },
      (answer) => {
        if (answer.status !== 403) return;
        const { error, scope } = extractWWWAuthenticateParams(answer);
        if (error === "insufficient_scope" && scope) provider.stepUp(scope.split(" ").filter(Boolean));
      },
    );
    this.fetch = egress.fetch;
    this.#close = egress.close;
    this.exchange = mcpConsentExchange({
      server,
      serverUrl: input.url,
      provider: this.provider,
      // The discovery made when the consent was opened: a resource metadata URL only a 401 named is kept.
      completing: (codeVerifier) =>
        new StoredOAuthProvider({
          server,
          settings,
          host,
          codeVerifier,
          discovery: this.provider.discoveryState(),
        }),
      fetch: egress.fetch,
      onAuthorized: input.onAuthorized,
    });
  }

  /** Whether `error` (or its cause) is the SDK saying the server wants an authorization first. */
  static needsConsent(error: unknown): boolean {
    for (let cause = error; cause instanceof Error; cause = cause.cause) {
      if (cause instanceof UnauthorizedError) return true;
    }
    return false;
  }

  /**
   * A call's failure while authorization is needed: `auth_required` with toolreg's start link (never the
   * authorization server's URL, which carries the live state); nothing ran upstream, so calling again
   * once the user has consented is safe.
   */
  failureOf(tool: string, error: unknown): ToolFailure | undefined {
    if (!ImportAuthorization.needsConsent(error)) return undefined;
    const pending = this.provider.pending;
    if (!pending) {
      return new ToolFailure(
        "auth_required",
        `${tool} has not run: the MCP server ${this.#server} refused toolreg's authorization and no consent could be opened`,
        { cause: error },
      );
    }
    const minutes = Math.max(1, Math.round((pending.expiresAt - this.#now()) / 60_000));
    return new ToolFailure(
      "auth_required",
      `${tool} has not run: the MCP server ${this.#server} needs ${pending.principalId} to authorize toolreg. Ask ${pending.principalId} to open ${pending.consentUrl} in a browser signed in to the toolreg console as ${pending.principalId} and allow access (the link works for ${minutes} minutes), then call it again`,
      {
        details: {
          provider: this.provider.provider,
          consentId: pending.consentId,
          consentUrl: pending.consentUrl,
          expiresAt: new Date(pending.expiresAt).toISOString(),
        },
        cause: error,
      },
    );
  }

  close(): Promise<void> {
    return this.#close();
  }
}
