/** @module Dynamic client registration (RFC 7591), open to anyone as the MCP authorization spec expects. */
import type { Hono } from "hono";
import { clientAddressOf } from "../auth-failures.js";
import { readJsonBody } from "../read-json-body.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { registerClient } from "./oauth-clients.js";
import { oauthError, oauthJson } from "./oauth-error.js";

/** A registration is a few URIs and names; a bigger body is refused before it is read. */
const MAX_REGISTRATION_BYTES = 16 * 1024;

export function oauthRegisterRoute(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.post("/oauth/register", async (c) => {
    // Counted before the body is read: each attempt costs the server, not only those that are stored.
    const taken = deps.oauth.registrations.take(clientAddressOf(c, deps.oauth.trustProxy));
    if (!taken.ok) {
      const seconds = Math.ceil(taken.retryAfterMs / 1000);
      return oauthError(
        "temporarily_unavailable",
        `too many client registrations from this address; retry in ${seconds} s, or reuse the client already registered`,
        429,
        { "retry-after": String(seconds) },
      );
    }
    const body = await readJsonBody(c, { maxBytes: MAX_REGISTRATION_BYTES, timeoutMs: deps.bodyTimeoutMs });
    if (!body.ok) {
      const status = body.response.status;
      return oauthError(
        "invalid_client_metadata",
        "send the client's metadata as a JSON object of at most 16 KiB",
        status,
      );
    }
    // Clients nobody consented to are dropped after a while, and only so many are kept meanwhile.
    const { max, ttlMs } = deps.oauth.unusedClients;
    if ((await deps.auth.pruneUnusedClients(Date.now() - ttlMs)) >= max) {
      return oauthError(
        "temporarily_unavailable",
        "too many registered clients are waiting for a user's consent; retry later, or reuse a client already registered",
        503,
        { "retry-after": "60" },
      );
    }
    const registered = await registerClient(deps.auth, body.value);
    if (!registered.ok) return oauthError(registered.error, registered.description);
    deps.logger.info({ clientId: registered.client.client_id }, "OAuth client registered");
    return oauthJson(registered.client, 201);
  });
}
