/**
 * @module The pages of the authorization endpoint: the consent a logged-in console user gives (or refuses),
 * the way to log in first, and a request that cannot be answered.
 */
import type { Caller } from "../../ports/auth-store.js";
import { escapeHtml, htmlPage } from "../html-page.js";
import type { AuthorizationRequest } from "./authorization-request.js";
import { grantedScopes } from "./oauth-grant.js";

/** Asks the user to let the client act as them; the answer posts back, with the session's CSRF token. */
export function consentPage(request: AuthorizationRequest, user: Caller, csrfToken: string): Response {
  const name = request.client.name ?? "An unnamed client";
  const scopes = grantedScopes(request.scope, user.scopes);
  const fields: Record<string, string | undefined> = {
    client_id: request.client.clientId,
    redirect_uri: request.redirectUri,
    response_type: "code",
    code_challenge: request.codeChallenge,
    code_challenge_method: "S256",
    resource: request.resource,
    scope: request.scope,
    state: request.state,
    csrf_token: csrfToken,
  };
  const hidden = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([field, value]) => `<input type="hidden" name="${field}" value="${escapeHtml(value)}">`)
    .join("");
  const body =
    `<p>${escapeHtml(name)} (client ${escapeHtml(request.client.clientId)}) asks to use this server's tools at ` +
    `${escapeHtml(request.resource)} as <b>${escapeHtml(user.principalId)}</b> in tenant <b>${escapeHtml(user.tenantId)}</b>, ` +
    `with ${scopes.length === 0 ? "no scopes" : `the scopes ${escapeHtml(scopes.join(", "))}`}, and to be answered at ` +
    `${escapeHtml(request.redirectUri)}.</p>` +
    `<p>The grant is listed by <code>toolreg keys list</code> as "oauth: ${escapeHtml(name)}" and ended by <code>toolreg keys revoke</code>.</p>` +
    // Relative, so the form posts back to this endpoint behind a proxy's path prefix too.
    `<form method="post" action="authorize">${hidden}` +
    `<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></form>`;
  return htmlPage(
    200,
    `Allow ${name} to use toolreg?`,
    body,
    `'self' ${redirectTarget(request.redirectUri)}`,
  );
}

/**
 * No console session came with the request: log in with a one-time token and come back here. A session may
 * exist yet its cookie (SameSite=Strict) was held back because a page elsewhere sent the user: "Continue",
 * a navigation from this server's own page, sends it.
 */
export function loginPage(returnTo: string): Response {
  const body =
    "<p>An application asks to use this server's tools as you. Log in to the toolreg console first: paste the " +
    "token of a login link (<code>toolreg keys login</code> prints one), then you are brought back here.</p>" +
    `<form method="get" action="/login"><input type="hidden" name="next" value="${escapeHtml(returnTo)}">` +
    '<label>Login token <input name="token" autocomplete="off" required></label> <button>Log in</button></form>' +
    `<p>Already logged in? <a href="${escapeHtml(returnTo)}">Continue</a>.</p>`;
  return htmlPage(401, "Log in to toolreg", body, "'self'");
}

/** A request that cannot be sent back to the client: its client or redirect URI is not to be trusted. */
export const refusalPage = (status: number, reason: string): Response =>
  htmlPage(
    status,
    "This authorization request cannot be answered",
    `<p>${escapeHtml(reason)}. Start again from your application.</p>`,
  );

/** Where a consent's redirect goes, as a CSP source: an http(s) origin, or an app's own scheme. */
function redirectTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
}
