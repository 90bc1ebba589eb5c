import { describe, expect, it } from "vitest";
import { DEFAULT_EGRESS_POLICY, resolveEgressPolicy } from "./egress-policy.js";
import { hostMatches } from "./host-pattern.js";

describe("egress policy", () => {
  it("defaults to public addresses, any host, no redirects, bounded bodies and times", () => {
    expect(resolveEgressPolicy()).toEqual(DEFAULT_EGRESS_POLICY);
    expect(DEFAULT_EGRESS_POLICY).toMatchObject({
      allowHosts: undefined,
      allowAddressClasses: ["public"],
      allowCidrs: [],
      followRedirects: false,
      maxRedirects: 5,
    });
  });

  it("overlays what is given and keeps the defaults for what is not", () => {
    const policy = resolveEgressPolicy({ allowAddressClasses: ["public", "loopback"], totalTimeoutMs: 500 });
    expect(policy.allowAddressClasses).toEqual(["public", "loopback"]);
    expect(policy.totalTimeoutMs).toBe(500);
    expect(policy.maxResponseBytes).toBe(DEFAULT_EGRESS_POLICY.maxResponseBytes);
    expect(Object.isFrozen(policy)).toBe(true);
  });

  it.each([
    [{ maxRedirects: 6 }, /maxRedirects/],
    [{ allowAddressClasses: ["intranet"] }, /not an address class/],
    [{ allowCidrs: ["10.0.0.0/33"] }, /not a CIDR/],
    [{ allowHosts: ["exa*mple.com"] }, /allowHosts/],
    [{ denyHosts: ["*"] }, /denyHosts/],
    [{ totalTimeoutMs: 0 }, /totalTimeoutMs/],
    [{ credentials: { "api.example.com": { header: "bad header", credentialRef: "x" } } }, /credentials/],
  ])("refuses a bad field: %j", (init, message) => {
    expect(() => resolveEgressPolicy(init as never)).toThrow(message);
  });
});

describe("host patterns", () => {
  it("matches exact hosts without case or a trailing dot, and *.suffix on subdomains only", () => {
    expect(hostMatches("API.Example.com.", "api.example.com")).toBe(true);
    expect(hostMatches("a.b.example.com", "*.example.com")).toBe(true);
    expect(hostMatches("example.com", "*.example.com")).toBe(false);
    expect(hostMatches("badexample.com", "*.example.com")).toBe(false);
    expect(hostMatches("[::1]", "::1")).toBe(true);
  });
});
