/**
 * @module The authorization endpoint. Consent goes through the console's login: the user's console session
 * (its cookie) says who consents, and the answer posts back with the session's CSRF token, so no page
 * elsewhere can consent for them. A code is then sent to the client's registered redirect URI.
 */
import type { Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { LiveSession } from "../../ports/auth-store.js";
import { SESSION_COOKIE, sameToken } from "../authenticate.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import {
  codePayloadOf,
  type ReadAuthorization,
  readAuthorization,
  redirectWith,
} from "./authorization-request.js";
import { consentPage, loginPage, refusalPage } from "./consent-page.js";
import { CODE_TTL_MS } from "./oauth-grant.js";
import { oauthUrlsOf } from "./oauth-urls.js";
import { readForm } from "./read-form.js";

export const AUTHORIZE_PATH = "/oauth/authorize";

export function oauthAuthorizeRoutes(
  app: Hono<ServerEnv>,
  deps: ServerDeps,
  publicUrl: string | undefined,
): void {
  const sessionOf = async (c: Context): Promise<LiveSession | undefined> => {
    const sessionId = getCookie(c, SESSION_COOKIE);
    return sessionId ? deps.auth.session(sessionId) : undefined;
  };
  const read = async (c: Context, field: (name: string) => string | undefined): Promise<ReadAuthorization> =>
    readAuthorization(
      field,
      await deps.oauth.client(field("client_id")),
      oauthUrlsOf(c.req.url, publicUrl).resource,
    );
  const unanswerable = (c: Context, refusal: Exclude<ReadAuthorization, { ok: true }>) =>
    "shown" in refusal ? refusalPage(400, refusal.shown) : c.redirect(refusal.redirect, 303);

  app.get(AUTHORIZE_PATH, async (c) => {
    const request = await read(c, (name) => c.req.query(name));
    if (!request.ok) return unanswerable(c, request);
    const session = await sessionOf(c);
    if (!session) {
      const url = new URL(c.req.url);
      return loginPage(`${url.pathname}${url.search}`);
    }
    return consentPage(request.request, session.caller, session.csrfToken);
  });

  app.post(AUTHORIZE_PATH, async (c) => {
    const form = await readForm(c, deps.bodyTimeoutMs);
    if (form instanceof Response) return form;
    const session = await sessionOf(c);
    if (!session || !sameToken(form.get("csrf_token") ?? undefined, session.csrfToken)) {
      return refusalPage(403, "This consent form has expired, or was not sent from this server's page");
    }
    const request = await read(c, (name) => form.get(name) ?? undefined);
    if (!request.ok) return unanswerable(c, request);
    const { redirectUri, state } = request.request;
    if (form.get("decision") !== "allow") {
      return c.redirect(
        redirectWith(redirectUri, {
          error: "access_denied",
          error_description: "the user did not allow it",
          state,
        }),
        303,
      );
    }
    // Consented to: a registered client is kept from now on (one never used is pruned).
    await deps.auth.markClientUsed(request.request.client.clientId);
    const code = await deps.auth.createGrantToken({
      kind: "code",
      keyId: session.caller.keyId,
      payload: JSON.stringify(codePayloadOf(request.request, session.caller)),
      ttlMs: CODE_TTL_MS,
    });
    // iss (RFC 9207) lets a client that talks to several servers tell which one answered.
    const { issuer } = oauthUrlsOf(c.req.url, publicUrl);
    return c.redirect(redirectWith(redirectUri, { code, state, iss: issuer }), 303);
  });
}
