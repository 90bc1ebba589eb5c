import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { AuthFailures, clientKey } from "./auth-failures.js";
import { loginRoute } from "./routes/session-routes.js";
import type { ServerDeps } from "./server-deps.js";
import type { ServerEnv } from "./server-env.js";

function tracker(settings: { limit?: number; windowMs?: number; maxAddresses?: number } = {}) {
  let now = Date.UTC(2026, 0, 1);
  const failures = new AuthFailures({
    limit: settings.limit ?? 3,
    windowMs: settings.windowMs ?? 60_000,
    ...(settings.maxAddresses ? { maxAddresses: settings.maxAddresses } : {}),
    clock: () => now,
  });
  return {
    failures,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("AuthFailures", () => {
  it("refuses an address once it has failed `limit` times in the window, with Retry-After, until a failure leaves it", async () => {
    const { failures, advance } = tracker();
    for (let i = 0; i < 3; i++) {
      expect(failures.refusal("203.0.113.7")).toBeUndefined();
      failures.failed("203.0.113.7");
      advance(1_000);
    }
    const refused = failures.refusal("203.0.113.7");
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get("content-type")).toBe("application/problem+json");
    // The first failure (3 s ago) leaves the window 57 to 62 s from now (slots are 5 s).
    const retryAfter = Number(refused?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(57);
    expect(retryAfter).toBeLessThanOrEqual(62);
    expect(await refused?.json()).toMatchObject({ status: 429, code: "too_many_auth_failures" });
    // Another address is not touched.
    expect(failures.refusal("203.0.113.8")).toBeUndefined();
    advance(retryAfter * 1000 - 1_000);
    expect(failures.refusal("203.0.113.7")?.status).toBe(429);
    advance(1_000);
    expect(failures.refusal("203.0.113.7")).toBeUndefined();
  });

  it("forgets an address whose failures have all left the window", () => {
    const { failures, advance } = tracker();
    failures.failed("203.0.113.7");
    expect(failures.size).toBe(1);
    advance(70_000);
    expect(failures.refusal("203.0.113.7")).toBeUndefined();
    expect(failures.size).toBe(0);
  });

  it("holds at most maxAddresses, forgetting the least recently failed first", () => {
    const { failures } = tracker({ limit: 2, maxAddresses: 4 });
    for (const address of ["a", "b", "c", "d"]) failures.failed(address);
    expect(failures.size).toBe(4);
    // a fails again, so it is kept; b is the least recently failed when e comes, and is forgotten.
    failures.failed("a");
    failures.failed("e");
    expect(failures.size).toBeLessThanOrEqual(4);
    expect(failures.refusal("a")?.status).toBe(429);
    failures.failed("b");
    expect(failures.refusal("b")).toBeUndefined();
  });

  it("holds at most maxAddresses when the bound is odd, and refuses a bound two generations cannot keep", () => {
    const { failures } = tracker({ maxAddresses: 5 });
    let largest = 0;
    for (let i = 0; i < 100; i++) {
      failures.failed(String(i));
      largest = Math.max(largest, failures.size);
    }
    expect(largest).toBeLessThanOrEqual(5);
    expect(() => new AuthFailures({ limit: 3, windowMs: 60_000, maxAddresses: 1 })).toThrow(RangeError);
  });

  it("stays bounded under a million distinct addresses", () => {
    const { failures } = tracker();
    let largest = 0;
    for (let i = 0; i < 1_000_000; i++) {
      failures.failed(String(i));
      largest = Math.max(largest, failures.size);
    }
    expect(largest).toBe(10_000);
    // The most recent are still there.
    expect(failures.refusal("999999")).toBeUndefined();
    failures.failed("999999");
    failures.failed("999999");
    expect(failures.refusal("999999")?.status).toBe(429);
  });
});

describe("the login route", () => {
  it("counts a login token that is wrong, and not a bare /login that gave none", async () => {
    const { failures } = tracker({ limit: 3 });
    const app = new Hono<ServerEnv>();
    const deps = { auth: { redeemLoginToken: () => undefined } } as unknown as ServerDeps;
    loginRoute(app, deps, failures);
    for (let i = 0; i < 5; i++) expect((await app.request("/login")).status).toBe(401);
    expect(failures.size).toBe(0);
    for (let i = 0; i < 3; i++)
      expect((await app.request(`/login?token=${"y".repeat(43)}`)).status).toBe(401);
    expect((await app.request("/login")).status).toBe(429);
  });
});

describe("clientKey", () => {
  it("keys IPv4 as is, IPv4 mapped into IPv6 as IPv4, IPv6 by its /64, and anything else as unknown", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::FFFF:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(clientKey("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("127.1")).toBe("127.0.0.1");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("[::1]")).toBe("unknown");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("not an address")).toBe("unknown");
    expect(clientKey(undefined)).toBe("unknown");
  });
});
