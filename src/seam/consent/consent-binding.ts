/**
 * @module Binds a consent to the browser of the user it is for. The `state` alone names a consent, so a user
 * handed another user's authorization URL (and already signed in at the vendor) would be sent straight back
 * and have their vendor account stored as the other user's. Only toolreg's start link, opened in the console
 * session of the consent's own principal, sets a cookie carrying a MAC of the consent's id; the callback
 * accepts a state only for a consent its browser holds such a cookie for.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

const COOKIE_PREFIX = "toolreg_consent_";
/** Consent ids are UUIDs; anything else in a cookie name is not ours. */
const CONSENT_ID = /^[0-9a-f-]{36}$/;

export interface ConsentBinding {
  /** The cookie the start link sets for `consentId`. */
  cookieFor(consentId: string): { name: string; value: string };
  /**
   * Where the cookie goes: the callback's path and scheme as the user's browser sees them (from the public
   * callback URL, so a proxy's path prefix or its TLS are honoured).
   */
  scope(): { path: string; secure: boolean };
  /** The server's origin as users' browsers reach it. */
  origin(): string;
  /** The consents the browser's cookies were bound to by a start link, each verified. */
  startedIn(cookies: Readonly<Record<string, string>>): string[];
}

/**
 * The binding under a key derived from the operator's credentials key, so no second secret is kept.
 * `callbackUrl` is the redirect URI the provider sends users back to.
 */
export function createConsentBinding(operatorKey: Uint8Array, callbackUrl: () => string): ConsentBinding {
  const key = Buffer.from(hkdfSync("sha256", operatorKey, new Uint8Array(0), "toolreg consent binding", 32));
  const macOf = (consentId: string) => createHmac("sha256", key).update(consentId).digest();
  return {
    cookieFor(consentId) {
      return { name: `${COOKIE_PREFIX}${consentId}`, value: macOf(consentId).toString("base64url") };
    },
    scope() {
      const url = new URL(callbackUrl());
      return { path: url.pathname, secure: url.protocol === "https:" };
    },
    origin: () => new URL(callbackUrl()).origin,
    startedIn(cookies) {
      const started: string[] = [];
      for (const [name, value] of Object.entries(cookies)) {
        if (!name.startsWith(COOKIE_PREFIX)) continue;
        const consentId = name.slice(COOKIE_PREFIX.length);
        if (!CONSENT_ID.test(consentId)) continue;
        const presented = Buffer.from(value, "base64url");
        const expected = macOf(consentId);
        if (presented.length === expected.length && timingSafeEqual(presented, expected)) {
          started.push(consentId);
        }
      }
      return started;
    },
  };
}
