/**
 * @module Which OAuth connection an imported tool's call goes out on, so no caller's call carries another
 * tenant's or another user's token unless the deployment said so. `tenant`: the import's one connection,
 * for the configured tenant's callers alone. `deployment`: that connection for every caller. `user`: the
 * caller's own connection with their own token (the listing user's is the import's connection).
 * A call that needs consent first fails `auth_required` with the link for the user it needs. While a call
 * runs, what the upstream asks on the call's connection is put to the call's client (the connection's own
 * CallerRequests), never to a call on another user's connection.
 */
import { ToolFailure } from "../../../errors/tool-failure.js";
import type { ConsentExchange } from "../../../seam/consent/consent-exchange.js";
import type { CallIdentity } from "../../serve/client-channel.js";
import type { CallerRequests } from "../caller-requests.js";
import type { UpstreamConnection } from "../upstream-connection.js";
import type { ImportAuthorization } from "./import-authorization.js";
import type { McpOAuthSettings } from "./mcp-oauth-settings.js";
import type { UserConnections, UserKey } from "./user-connections.js";

export interface OAuthCallsInput {
  server: string;
  settings: McpOAuthSettings;
  /** The import's own connection (the one that lists) and its authorization. */
  listing: { authorization: ImportAuthorization; connection: UpstreamConnection; callers: CallerRequests };
  /** The other users' connections; given with `per: "user"` only. */
  users?: UserConnections | undefined;
}

export class OAuthCalls {
  readonly #input: OAuthCallsInput;
  readonly exchange: ConsentExchange;

  constructor(input: OAuthCallsInput) {
    this.#input = input;
    const { listing, users } = input;
    this.exchange = users
      ? {
          // One server, one authorization server: whoever's consent it is, the issuer expected is the same.
          wrongIssuer: (issuer) => listing.authorization.exchange.wrongIssuer(issuer),
          // The desk let only the consent's own user (signed in) get here: the tokens are stored as theirs.
          exchange: (request, code) => this.#authorizationOf(request).exchange.exchange(request, code),
        }
      : listing.authorization.exchange;
  }

  /** Runs `run` on the caller's connection; an authorization it lacks is an `auth_required` failure. */
  async call<T>(
    caller: CallIdentity,
    tool: string,
    run: (connection: UpstreamConnection) => Promise<T>,
  ): Promise<T> {
    const { server, settings, listing, users } = this.#input;
    const per = settings.per ?? "tenant";
    if (per === "tenant" && caller.tenantId !== settings.tenantId) {
      throw new ToolFailure(
        "not_authorized",
        `${tool} has not run: the MCP server ${server}'s OAuth connection belongs to tenant ${settings.tenantId}, and no other tenant's call goes out with its token. An operator can import it per user ("oauth": { "per": "user" }), so each user consents for themselves`,
      );
    }
    const own = !users || this.#isListing(caller);
    const authorization = own ? listing.authorization : users.authorization(caller);
    // Entered before the connection is made: an upstream may ask as soon as it is initialized.
    const release = (own ? listing.callers : users.callers(caller)).enter(caller);
    try {
      return own ? await run(listing.connection) : await users.call(caller, run);
    } catch (error) {
      throw authorization.failureOf(tool, error) ?? error;
    } finally {
      release();
    }
  }

  /** Closes the users' connections; the listing one is the import's to close. */
  close(): Promise<void> {
    return this.#input.users?.close() ?? Promise.resolve();
  }

  #isListing(user: UserKey): boolean {
    const { settings } = this.#input;
    return user.tenantId === settings.tenantId && user.principalId === settings.principalId;
  }

  #authorizationOf(user: UserKey): ImportAuthorization {
    const { listing, users } = this.#input;
    return this.#isListing(user) || !users ? listing.authorization : users.authorization(user);
  }
}
