import { describe, expect, it } from "vitest";
import { parseRate, parseRateLimitRule } from "./rate-limit-rules.js";

describe("parseRateLimitRule", () => {
  it.each([
    ["principal=100/min", { per: "principal", limit: 100, windowMs: 60_000 }],
    ["tenant=1000/hour", { per: "tenant", limit: 1000, windowMs: 3_600_000 }],
    ["tool=10/min", { per: "tool", limit: 10, windowMs: 60_000 }],
    ["tool:crm_write=10/min", { per: "tool", tool: "crm_write", limit: 10, windowMs: 60_000 }],
    ["tenant:acme=5000/hour", { per: "tenant", tenant: "acme", limit: 5000, windowMs: 3_600_000 }],
    ["principal:agent-7=20/min", { per: "principal", principal: "agent-7", limit: 20, windowMs: 60_000 }],
    ["principal=100/min,burst=20", { per: "principal", limit: 100, windowMs: 60_000, burst: 20 }],
    ["principal=5/10s", { per: "principal", limit: 5, windowMs: 10_000 }],
    ["tenant=100000/day", { per: "tenant", limit: 100_000, windowMs: 86_400_000 }],
  ])("reads %s", (text, rule) => {
    expect(parseRateLimitRule(text)).toEqual({ ok: true, value: rule });
  });

  it.each([
    ["principal", /expected LEVEL\[:ID\]=COUNT\/WINDOW/],
    ["principals=1/min", /unknown level "principals": use tenant, principal or tool/],
    ["tenant:=1/min", /"" is not a tenant id/],
    ["tenant:a b=1/min", /"a b" is not a tenant id/],
    ["principal=100", /"100" is not a rate/],
    ["principal=0/min", /count in "0\/min" must be at least 1/],
    ["principal=100/fortnight", /unknown unit "fortnight"/],
    ["principal=1/0s", /window in "1\/0s" must be longer than 0/],
    ["principal=100/2day", /longer than a day; counts start over when toolreg restarts/],
    ["principal=100/min,burst=101", /burst=101 must be from 1 to the count, 100/],
    ["principal=100/min,burst=0", /burst=0 must be from 1/],
    ["principal=100/min,size=3", /unknown option "size=3": the only one is burst=N/],
  ])("refuses %s, saying what is wrong", (text, message) => {
    const parsed = parseRateLimitRule(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });
});

describe("parseRate", () => {
  it("reads a count per window, the window optionally a multiple of its unit", () => {
    expect(parseRate("20/min")).toEqual({ ok: true, value: { limit: 20, windowMs: 60_000 } });
    expect(parseRate("3/30s")).toEqual({ ok: true, value: { limit: 3, windowMs: 30_000 } });
    expect(parseRate("1/12h")).toEqual({ ok: true, value: { limit: 1, windowMs: 43_200_000 } });
    expect(parseRate("twenty/min").ok).toBe(false);
  });
});
