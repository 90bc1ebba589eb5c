/**
 * @module The console's session: a one-time login token (printed on first start, as notebook servers do)
 * becomes an HttpOnly, SameSite=Strict cookie; the page reads its CSRF token from `/api/v1/session`. A
 * login on the way to an OAuth consent goes back to it.
 */
import type { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AuthFailures } from "../auth-failures.js";
import { SESSION_COOKIE } from "../authenticate.js";
import { AUTHORIZE_PATH } from "../oauth/oauth-authorize-routes.js";
import { problem } from "../problem.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

/** Open to everyone: the token is the credential, and a wrong one counts as a failed authentication. */
export function loginRoute(app: Hono<ServerEnv>, deps: ServerDeps, failures?: AuthFailures): void {
  app.get("/login", async (c) => {
    const address = failures ? failures.addressOf(c) : "";
    const refusal = failures?.refusal(address);
    if (refusal) return refusal;
    const token = c.req.query("token") ?? "";
    const session =
      token.length > 0 && token.length <= 200 ? await deps.auth.redeemLoginToken(token) : undefined;
    if (!session) {
      // Only a token that was given is a guess; a bare /login guessed nothing.
      if (token.length > 0) failures?.failed(address);
      return problem(
        401,
        "login_token_invalid",
        "this login link was already used or has expired; create a new one with `toolreg keys login`",
      );
    }
    setCookie(c, SESSION_COOKIE, session.sessionId, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      secure: new URL(c.req.url).protocol === "https:",
      maxAge: 12 * 60 * 60,
    });
    // Back to the OAuth consent that sent the user to log in; anywhere else is the console.
    const next = c.req.query("next");
    return c.redirect(next?.startsWith(`${AUTHORIZE_PATH}?`) ? next : "/", 303);
  });
}

/** Behind authentication. */
export function sessionRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.get("/api/v1/session", async (c) => {
    const caller = c.get("caller");
    const body: Record<string, unknown> = {
      tenantId: caller.tenantId,
      principalId: caller.principalId,
      operator: caller.operator,
      scopes: caller.scopes,
      mode: caller.mode,
    };
    if (c.get("viaSession")) {
      const sessionId = getCookie(c, SESSION_COOKIE);
      body.csrfToken = sessionId ? (await deps.auth.session(sessionId))?.csrfToken : undefined;
    }
    return c.json(body);
  });

  app.post("/api/v1/logout", async (c) => {
    const sessionId = getCookie(c, SESSION_COOKIE);
    if (sessionId) await deps.auth.endSession(sessionId);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.body(null, 204);
  });
}
