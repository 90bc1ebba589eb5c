/** @module A rate-limit rule, as every ceilings adapter reads it: what it counts, where it applies, how it reads. */
import { CEILING_LEVELS, type CeilingLevel } from "./ceiling-key.js";

export interface RateLimitRule {
  /** What one counter counts: all calls of a tenant, of a principal, or of a principal on one tool. */
  per: CeilingLevel;
  /** Calls admitted in any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /** At most this many at once, refilled at `limit` per window; the whole limit may come at once when omitted. */
  burst?: number;
  /** Only calls of this tenant count, and are limited. */
  tenant?: string;
  /** Only calls of principals with this id (in any tenant). */
  principal?: string;
  /** Only calls of this tool. */
  tool?: string;
}

/** Whether the rule counts this call: a rule naming a tenant, principal or tool applies to that one only. */
export function ruleApplies(
  rule: RateLimitRule,
  request: { tenantId: string; principalId: string; toolName: string },
): boolean {
  return (
    (rule.tenant === undefined || rule.tenant === request.tenantId) &&
    (rule.principal === undefined || rule.principal === request.principalId) &&
    (rule.tool === undefined || rule.tool === request.toolName)
  );
}

/** Throws a RangeError for a rule no adapter can hold. */
export function checkRule(rule: RateLimitRule): void {
  if (!CEILING_LEVELS.includes(rule.per))
    throw new RangeError(`a rate limit is per ${CEILING_LEVELS.join(", ")}`);
  if (!Number.isSafeInteger(rule.limit) || rule.limit < 1) {
    throw new RangeError("a rate limit's limit is a whole number, at least 1");
  }
  if (
    rule.burst !== undefined &&
    (!Number.isSafeInteger(rule.burst) || rule.burst < 1 || rule.burst > rule.limit)
  ) {
    throw new RangeError("a rate limit's burst is a whole number from 1 to its limit");
  }
}

/** The rule as a person reads it, for the refusal's message: "100 calls per minute per principal". */
export function describeRule(rule: RateLimitRule): string {
  const scope = [
    rule.per !== "tenant" && rule.tenant !== undefined ? ` in tenant ${rule.tenant}` : "",
    rule.per !== "principal" && rule.principal !== undefined ? ` of principal ${rule.principal}` : "",
    rule.tool === undefined ? "" : ` on ${rule.tool}`,
  ].join("");
  const calls = rule.limit === 1 ? "call" : "calls";
  const burst = rule.burst === undefined ? "" : `, at most ${rule.burst} at once`;
  return `${rule.limit} ${calls} per ${formatWindow(rule.windowMs)} ${countedBy(rule)}${scope}${burst}`;
}

function countedBy(rule: RateLimitRule): string {
  switch (rule.per) {
    case "tenant":
      return rule.tenant === undefined ? "per tenant" : `for tenant ${rule.tenant}`;
    case "principal":
      return rule.principal === undefined ? "per principal" : `for principal ${rule.principal}`;
    case "tool":
      // A tool's counter is a principal's on that tool: with the tool named, it is simply per principal.
      return rule.tool === undefined ? "per principal and tool" : "per principal";
  }
}

const UNITS: readonly [ms: number, name: string][] = [
  [86_400_000, "day"],
  [3_600_000, "hour"],
  [60_000, "minute"],
  [1_000, "second"],
  [1, "ms"],
];

function formatWindow(windowMs: number): string {
  const [ms, name] = UNITS.find(([unit]) => windowMs % unit === 0) ?? [1, "ms"];
  const count = windowMs / ms;
  if (count === 1) return name;
  return `${count} ${name === "ms" ? name : `${name}s`}`;
}
