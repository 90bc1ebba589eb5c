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
import type { ConsentBinding } from "../../seam/consent/consent-binding.js";
import type { ConsentCompletion, GrantOf } from "../../seam/seam.js";
import { withTraceFromHeaders } from "../../telemetry/trace-context.js";
import { SESSION_COOKIE } from "../authenticate.js";
import { callContext } from "../call-context.js";
import { newestLiveKey } from "../newest-live-key.js";
import { SECURITY_HEADERS } from "../security-headers.js";
import { CALLBACK_PATH, START_PATH } from "../server-credentials.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { statusOf } from "./tools-routes.js";

/**
 * The start link and the callback, outside `/api`: a person's browser carries the console's session cookie
 * or the consent's own cookie, never an API key. The session cookie is SameSite=Strict, so a start link
 * clicked on another site (a chat showing the model's answer) arrives without it: that GET answers a page
 * whose button POSTs to the same link from toolreg's own origin, which carries the session.
 */
export function consentBrowserRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const { consentBinding: binding } = deps;
  if (!binding) return;
  const start = async (c: Context<ServerEnv>) => {
    const sessionId = getCookie(c, SESSION_COOKIE);
    const session = sessionId ? await deps.auth.session(sessionId) : undefined;
    if (!session && c.req.method === "GET") {
      return page(
        200,
        "Connect an account to toolreg",
        "Continue to sign in at the service and allow access for your toolreg user.",
        // Relative to the link itself, so the form still posts to it behind a proxy's path prefix.
        { action: encodeURIComponent(c.req.param("consentId") ?? ""), button: "Continue" },
      );
    }
    if (!session) {
      return page(
        401,
        "Sign in to toolreg first",
        "Open a console sign-in link for your user (toolreg keys login --principal YOU prints one), then open this link again in the same browser.",
      );
    }
    if (c.req.method === "POST" && !sameOrigin(c, binding)) {
      return page(403, "This link is not yours to open", "the request came from another site");
    }
    const consentId = c.req.param("consentId") ?? "";
    const { tenantId, principalId } = session.caller;
    const authorization = await deps.seam.consentAuthorization({ tenantId, principalId }, consentId);
    if (!authorization.ok) return page(403, "This link is not yours to open", authorization.message);
    const cookie = binding.cookieFor(consentId);
    const { path: cookiePath, secure } = binding.scope();
    setCookie(c, cookie.name, cookie.value, {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level navigation from its site, which Strict would drop.
      sameSite: "Lax",
      path: cookiePath,
      secure,
      maxAge: Math.max(1, Math.ceil((authorization.expiresAt - Date.now()) / 1000)),
    });
    c.header("cache-control", "no-store");
    c.header("referrer-policy", "no-referrer");
    return c.redirect(authorization.url, 303);
  };
  app.get(`${START_PATH}/:consentId`, start);
  app.post(`${START_PATH}/:consentId`, start);

  app.get(CALLBACK_PATH, async (c) => {
    if (deps.inflight.closed) return page(503, "toolreg is restarting", "Open the link again in a moment.");
    const query = c.req.query();
    const completion = await deps.inflight.track(() =>
      deps.seam.completeConsent(
        {
          state: query.state,
          consentIds: binding.startedIn(getCookie(c)),
          issuer: query.iss,
          code: query.code,
          error: query.error,
          errorDescription: query.error_description,
        },
        grantOf(deps),
      ),
    );
    const done = completionPage(completion);
    // That consent is spent: its cookie has nothing left to bind. Others started in this browser stay bound.
    if (completion.consentId !== undefined) {
      const { path, secure } = binding.scope();
      done.headers.append(
        "set-cookie",
        `${binding.cookieFor(completion.consentId).name}=; Max-Age=0; Path=${path}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
      );
    }
    return done;
  });
}

/** A POST from toolreg's own pages: its Origin, when the browser sends one, is the server's. */
function sameOrigin(c: Context<ServerEnv>, binding: ConsentBinding): boolean {
  const origin = c.req.header("origin");
  if (origin === undefined) return true;
  return origin === new URL(c.req.url).origin || origin === binding.origin();
}

export function consentRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.post("/api/v1/consents/:id/resume", async (c) => {
    const prepared = callContext(c, c.get("caller"), deps.logger, deps.credentials);
    if (!prepared.ok) return prepared.response;
    const envelope = await deps.inflight.track(() =>
      withTraceFromHeaders(c.req.raw.headers, () =>
        deps.seam.resumeParked(prepared.context, c.req.param("id"), { onInProgress: "wait" }),
      ),
    );
    return c.json(envelope, statusOf(envelope) as 200);
  });
}

/** A user's grant now: their newest live key's scopes and mode; none without one, so the call is refused. */
function grantOf(deps: ServerDeps): GrantOf {
  return async (tenantId, principalId) => {
    const key = await newestLiveKey(deps.auth, tenantId, principalId);
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

/**
 * A page a person reads: escaped text, nothing loaded, nothing cached (the URL carried a code); at most one
 * button, posting back to toolreg itself.
 */
function page(
  status: number,
  title: string,
  text: string,
  form?: { action: string; button: string },
): Response {
  const button = form
    ? `<form method="post" action="${escapeHtml(form.action)}"><button>${escapeHtml(form.button)}</button></form>`
    : "";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>toolreg: ${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${button}</body></html>`;
  return new Response(html, {
    status,
    headers: {
      ...SECURITY_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      // A form posts to toolreg, whose answer redirects to the provider: Chrome checks form-action along
      // redirects, so a page with a form leaves it open (it runs no script and loads nothing).
      "content-security-policy": `default-src 'none'; frame-ancestors 'none'; base-uri 'none'${form ? "" : "; form-action 'none'"}`,
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
