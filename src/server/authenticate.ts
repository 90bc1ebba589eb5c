/**
 * @module Every API request is authenticated: an API key (`Authorization: Bearer trk_…`), or the console's
 * session cookie — and then a state-changing request must also carry the session's CSRF token, which a
 * page on another origin cannot read. Failed attempts are throttled per client address (auth-failures.ts).
 * An OAuth access token is an API key too (one that expires), so it is verified the same way.
 */
import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AuthStore } from "../ports/auth-store.js";
import type { Logger } from "../seam/context.js";
import type { AuthFailures } from "./auth-failures.js";
import { VerifiedKeys } from "./key-cache.js";
import { parseBearer } from "./parse-bearer.js";
import { problem } from "./problem.js";
import type { ServerEnv } from "./server-env.js";

export const SESSION_COOKIE = "toolreg_session";
export const CSRF_HEADER = "x-csrf-token";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The `WWW-Authenticate` challenge of a 401; `invalidToken` when a bearer token was sent and refused. */
export type Challenge = (c: Context, invalidToken: boolean) => string;

const REALM_ONLY: Challenge = () => 'Bearer realm="toolreg"';

/**
 * With `failures`, a wrong key or a cookie naming no live session counts against the client's address,
 * which is refused once past the limit. `challenge` says where to get a token (default: the realm only).
 */
export function authenticate(
  auth: AuthStore,
  options: {
    keys?: VerifiedKeys;
    failures?: AuthFailures | undefined;
    logger?: Logger;
    challenge?: Challenge;
  } = {},
) {
  const { keys = new VerifiedKeys(auth), failures, logger, challenge = REALM_ONLY } = options;
  const unlessStoreDown = async <T>(lookup: Promise<T>): Promise<T | Response> => {
    try {
      return await lookup;
    } catch (error) {
      // Not the caller's fault, nor a reason to refuse their key: they are told to retry, and nothing
      // counts against their address.
      logger?.warn({ err: error }, "the auth store could not be asked");
      return problem(
        503,
        "store_unavailable",
        "the server cannot reach its store to check the credential; retry shortly",
        {},
        { "retry-after": "1" },
      );
    }
  };
  return createMiddleware<ServerEnv>(async (c, next) => {
    // Before any credential is looked at: a throttled guesser learns nothing and costs no lookup.
    const address = failures ? failures.addressOf(c) : "";
    const refusal = failures?.refusal(address);
    if (refusal) return refusal;
    const bearer = parseBearer(c.req.header("authorization"));
    if (bearer !== undefined) {
      const caller = await unlessStoreDown(keys.verify(bearer));
      if (caller instanceof Response) return caller;
      if (!caller) {
        failures?.failed(address);
        return unauthorized("the API key or access token is unknown, expired or revoked", challenge(c, true));
      }
      c.set("caller", caller);
      c.set("viaSession", false);
      return next();
    }
    const sessionId = getCookie(c, SESSION_COOKIE);
    const session = sessionId ? await unlessStoreDown(auth.session(sessionId)) : undefined;
    if (session instanceof Response) return session;
    if (!session) {
      // Only a cookie that names no live session is a failure; no credential at all guessed nothing.
      if (sessionId) failures?.failed(address);
      return unauthorized("send an API key as `Authorization: Bearer trk_…`", challenge(c, false));
    }
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
export function sameToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const left = Buffer.from(presented);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

function unauthorized(detail: string, challenge: string): Response {
  return problem(401, "unauthenticated", detail, {}, { "www-authenticate": challenge });
}
