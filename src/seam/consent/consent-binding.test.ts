import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createConsentBinding } from "./consent-binding.js";

const key = randomBytes(32);
const binding = createConsentBinding(key, () => "https://toolreg.example/prefix/oauth/callback");

describe("the consent binding cookie", () => {
  it("verifies the cookie it set, for that consent alone", () => {
    const consentId = randomUUID();
    const cookie = binding.cookieFor(consentId);
    expect(cookie.name).toBe(`toolreg_consent_${consentId}`);
    expect(binding.startedIn({ [cookie.name]: cookie.value, toolreg_session: "s" })).toEqual([consentId]);
    // The same value under another consent's name proves nothing about that one.
    const other = randomUUID();
    expect(binding.startedIn({ [`toolreg_consent_${other}`]: cookie.value })).toEqual([]);
  });

  it("refuses a planted cookie: a forged value, a wrong length, another key's, a name that is no consent id", () => {
    const victim = randomUUID();
    const name = `toolreg_consent_${victim}`;
    const genuine = binding.cookieFor(victim).value;
    const forged = Buffer.from(genuine, "base64url");
    forged[0] = (forged[0] ?? 0) ^ 1;
    expect(binding.startedIn({ [name]: forged.toString("base64url") })).toEqual([]);
    expect(binding.startedIn({ [name]: genuine.slice(0, 20) })).toEqual([]);
    expect(binding.startedIn({ [name]: "" })).toEqual([]);
    const elsewhere = createConsentBinding(randomBytes(32), () => "https://toolreg.example/oauth/callback");
    expect(binding.startedIn({ [name]: elsewhere.cookieFor(victim).value })).toEqual([]);
    const notAnId = "toolreg_consent_../../x";
    expect(binding.startedIn({ [notAnId]: binding.cookieFor("../../x").value })).toEqual([]);
  });

  it("scopes the cookie to the callback as the user's browser reaches it", () => {
    expect(binding.scope()).toEqual({ path: "/prefix/oauth/callback", secure: true });
    expect(binding.origin()).toBe("https://toolreg.example");
    const plain = createConsentBinding(key, () => "http://127.0.0.1:7423/oauth/callback");
    expect(plain.scope()).toEqual({ path: "/oauth/callback", secure: false });
  });
});
