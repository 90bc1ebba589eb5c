/**
 * @module Consent over HTTP. `GET /oauth/start/:consentId` is the link a parked call's user opens, signed in
 * to the console as that user: it binds the consent to their browser (a cookie, consent-binding.ts) and
 * sends them to the provider. `GET /oauth/callback` is where the provider sends them back: it needs no API
 * key, since the single-use, expiring state names the consent, which this browser must have started; it
 * stores the tokens and resumes each parked call once, with the user's grant as their newest live key
 * gives it. `POST /api/v1/consents/:id/resume` is the requester asking after a parked call: its result,
 * the same every time.
 */
import type { Context, Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Envelope } from "../../seam/envelope.js";
import type { ConsentCompletion, GrantOf } from "../../seam/seam.js";
import { SESSION_COOKIE } from "../authenticate.js";
import { callContext } from "../call-context.js";
import { SECURITY_HEADERS } from "../security-headers.js";
import { CALLBACK_PATH, START_PATH } from "../server-credentials.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { STATUS_OF } from "./tools-routes.js";

/**
 * The start link and the callback, outside `/api`: a person's browser carries the console's session cookie
 * (SameSite=Strict, so not on the provider's redirect back) or the consent's own cookie, never an API key.
 */
export function consentBrowserRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const { consentBinding: binding } = deps;
  if (!binding) return;
  app.get(`${START_PATH}/:consentId`, async (c) => {
    const sessionId = getCookie(c, SESSION_COOKIE);
    const session = sessionId ? deps.auth.session(sessionId) : undefined;
    if (!session) {
      return page(
        401,
        "Sign in to toolreg first",
        "Open a console sign-in link for your user (toolreg keys login prints one), then open this link again in the same browser.",
      );
    }
    const consentId = c.req.param("consentId");
    const { tenantId, principalId } = session.caller;
    const authorization = await deps.seam.consentAuthorization({ tenantId, principalId }, consentId);
    if (!authorization.ok) return page(403, "This link is not yours to open", authorization.message);
    const cookie = binding.cookieFor(consentId);
    setCookie(c, cookie.name, cookie.value, {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level navigation from its site, which Strict would drop.
      sameSite: "Lax",
      path: CALLBACK_PATH,
      secure: isHttps(c),
      maxAge: Math.max(1, Math.ceil((authorization.expiresAt - Date.now()) / 1000)),
    });
    c.header("cache-control", "no-store");
    c.header("referrer-policy", "no-referrer");
    return c.redirect(authorization.url, 303);
  });

  app.get(CALLBACK_PATH, async (c) => {
    if (deps.inflight.closed) return page(503, "toolreg is restarting", "Open the link again in a moment.");
    const query = c.req.query();
    const consentIds = binding.startedIn(getCookie(c));
    const completion = await deps.inflight.track(() =>
      deps.seam.completeConsent(
        {
          state: query.state,
          consentIds,
          issuer: query.iss,
          code: query.code,
          error: query.error,
          errorDescription: query.error_description,
        },
        grantOf(deps),
      ),
    );
    const done = completionPage(completion);
    // The consent is spent (or unknown): its cookie has nothing left to bind.
    for (const consentId of consentIds) {
      const { name } = binding.cookieFor(consentId);
      done.headers.append(
        "set-cookie",
        `${name}=; Max-Age=0; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax${isHttps(c) ? "; Secure" : ""}`,
      );
    }
    return done;
  });
}

function isHttps(c: Context<ServerEnv>): boolean {
  return new URL(c.req.url).protocol === "https:";
}

export function consentRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.post("/api/v1/consents/:id/resume", async (c) => {
    const prepared = callContext(c, c.get("caller"), deps.logger, deps.credentials);
    if (!prepared.ok) return prepared.response;
    const envelope = await deps.inflight.track(() =>
      deps.seam.resumeParked(prepared.context, c.req.param("id"), { onInProgress: "wait" }),
    );
    return c.json(envelope, statusOf(envelope) as 200);
  });
}

function statusOf(envelope: Envelope): number {
  return envelope.ok ? 200 : STATUS_OF[envelope.error.code];
}

/** A user's grant now: their newest live key's scopes and mode; none without one, so the call is refused. */
function grantOf(deps: ServerDeps): GrantOf {
  return (tenantId, principalId) => {
    const key = deps.auth
      .listKeys({ tenantId })
      .filter((candidate) => candidate.principalId === principalId && candidate.revokedAt === undefined)
      .sort((a, b) => b.createdAt - a.createdAt)[0];
    return key ? { scopes: key.scopes, mode: key.mode } : undefined;
  };
}

function completionPage(completion: ConsentCompletion): Response {
  if (!completion.ok) {
    const title = completion.reason === "declined" ? "Not connected" : "This link did not work";
    return page(400, title, completion.message);
  }
  const resumed = completion.resumed.map(({ toolName, envelope }) =>
    envelope.ok ? `${toolName} ran.` : `${toolName}: ${envelope.error.code}.`,
  );
  return page(
    200,
    `Connected ${completion.provider}`,
    `${completion.principalId} connected "${completion.credentialRef}". ${resumed.length === 0 ? "No call was waiting." : resumed.join(" ")} You can close this page.`,
  );
}

/** A page a person reads: escaped text, nothing loaded, nothing cached (the URL carried a code). */
function page(status: number, title: string, text: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>toolreg: ${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  return new Response(html, {
    status,
    headers: {
      ...SECURITY_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy":
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
