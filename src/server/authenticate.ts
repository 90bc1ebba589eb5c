/**
 * @module Every API request is authenticated: an API key (`Authorization: Bearer trk_…`), or the console's
 * session cookie — and then a state-changing request must also carry the session's CSRF token, which a
 * page on another origin cannot read.
 */
import { timingSafeEqual } from "node:crypto";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { type AuthStore, parseBearer } from "./auth/index.js";
import { VerifiedKeys } from "./key-cache.js";
import { problem } from "./problem.js";
import type { ServerEnv } from "./server-env.js";

export const SESSION_COOKIE = "toolreg_session";
export const CSRF_HEADER = "x-csrf-token";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function authenticate(auth: AuthStore, keys: VerifiedKeys = new VerifiedKeys(auth)) {
  return createMiddleware<ServerEnv>(async (c, next) => {
    const bearer = parseBearer(c.req.header("authorization"));
    if (bearer !== undefined) {
      const caller = keys.verify(bearer);
      if (!caller) return unauthorized("the API key is unknown or revoked");
      c.set("caller", caller);
      c.set("viaSession", false);
      return next();
    }
    const sessionId = getCookie(c, SESSION_COOKIE);
    const session = sessionId ? auth.session(sessionId) : undefined;
    if (!session) return unauthorized("send an API key as `Authorization: Bearer trk_…`");
    if (!SAFE_METHODS.has(c.req.method) && !sameToken(c.req.header(CSRF_HEADER), session.csrfToken)) {
      return problem(
        403,
        "csrf_token_missing",
        `a console request that changes something needs the ${CSRF_HEADER} header`,
      );
    }
    c.set("caller", session.caller);
    c.set("viaSession", true);
    return next();
  });
}

/** Constant-time: how much of a guess matched must not show in the response time. */
function sameToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const left = Buffer.from(presented);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

function unauthorized(detail: string): Response {
  return problem(401, "unauthenticated", detail, {}, { "www-authenticate": 'Bearer realm="toolreg"' });
}
