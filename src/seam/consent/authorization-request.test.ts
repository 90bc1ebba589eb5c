import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashState, newAuthorizationRequest } from "./authorization-request.js";

const endpoints = {
  authorizeUrl: "https://auth.vendor.example/authorize?audience=api.vendor.example&prompt=consent",
  tokenUrl: "https://auth.vendor.example/oauth/token",
};
const request = (
  overrides: Partial<typeof endpoints> & { requestAlways?: string[] } = {},
  scopes = ["read:a"],
) =>
  new URL(
    newAuthorizationRequest({
      endpoints: { ...endpoints, ...overrides },
      clientId: "app",
      redirectUri: "https://toolreg.example/oauth/callback",
      scopes,
    }).url,
  );

describe("the authorization request a user is sent to", () => {
  it("keeps the parameters the vendor's authorize URL already carries and adds PKCE and state", () => {
    const made = newAuthorizationRequest({
      endpoints,
      clientId: "app",
      redirectUri: "https://toolreg.example/oauth/callback",
      scopes: ["read:a", "write:a"],
    });
    const url = new URL(made.url);
    expect(url.searchParams.get("audience")).toBe("api.vendor.example");
    expect(url.searchParams.get("prompt")).toBe("consent");
    expect(url.searchParams.get("scope")).toBe("read:a write:a");
    expect(url.searchParams.get("state")).toBe(made.state);
    expect(hashState(made.state)).toBe(made.stateHash);
    expect(url.searchParams.get("code_challenge")).toBe(
      createHash("sha256").update(made.codeVerifier).digest("base64url"),
    );
  });

  it("asks for the vendor's always-requested scopes too, once, joined as the vendor joins them", () => {
    expect(request({ requestAlways: ["offline_access"] }).searchParams.get("scope")).toBe(
      "read:a offline_access",
    );
    expect(request({ requestAlways: ["read:a"] }).searchParams.get("scope")).toBe("read:a");
    expect(request({ requestAlways: ["offline_access"] }, []).searchParams.get("scope")).toBe(
      "offline_access",
    );
    expect(request({}, []).searchParams.has("scope")).toBe(false);
  });
});
