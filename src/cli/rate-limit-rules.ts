/**
 * @module Rate-limit rules as an operator writes them, in `--rate-limit` and the config file's `rateLimits`:
 * `LEVEL[:ID]=COUNT/WINDOW[,burst=N]`, e.g. `principal=100/min`, `tenant:acme=5000/hour`,
 * `tool:crm_write=10/min,burst=3`. The config file also takes them as objects.
 */
import { z } from "zod";
import { CEILING_LEVELS, type CeilingLevel } from "../policy/ceiling-key.js";
import type { RateLimitRule } from "../policy/sliding-window-ceilings.js";
import { IDENTIFIER } from "../seam/context.js";

/** Counts live in the process and start over when it restarts: a longer window would promise too much. */
const MAX_WINDOW_MS = 86_400_000;

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  sec: 1_000,
  second: 1_000,
  seconds: 1_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

export const RULE_SHAPE =
  "LEVEL[:ID]=COUNT/WINDOW[,burst=N], e.g. principal=100/min or tool:crm_write=10/min";

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** A count per window: `100/min`, `5/10s`, `1000/hour`. */
export interface Rate {
  limit: number;
  windowMs: number;
}

export function parseRate(text: string): Parsed<Rate> {
  const match = /^(\d+)\/(\d*)([a-z]+)$/.exec(text.trim());
  if (!match)
    return failed(`"${clip(text)}" is not a rate: write COUNT/WINDOW, e.g. 100/min, 5/10s or 1000/hour`);
  const [, count, multiple, unit] = match as unknown as [string, string, string, string];
  const unitMs = UNIT_MS[unit];
  if (unitMs === undefined) return failed(`unknown unit "${unit}": use s, min, hour or day`);
  const limit = Number(count);
  const windowMs = (multiple === "" ? 1 : Number(multiple)) * unitMs;
  if (!Number.isSafeInteger(limit) || limit < 1)
    return failed(`the count in "${clip(text)}" must be at least 1`);
  if (windowMs < 1) return failed(`the window in "${clip(text)}" must be longer than 0`);
  if (windowMs > MAX_WINDOW_MS) {
    return failed(
      `the window in "${clip(text)}" is longer than a day; counts start over when toolreg restarts`,
    );
  }
  return { ok: true, value: { limit, windowMs } };
}

/** A rule from its string form; `LEVEL:ID` both counts per that level and applies to that one id only. */
export function parseRateLimitRule(text: string): Parsed<RateLimitRule> {
  const equals = text.indexOf("=");
  if (equals < 0) return failed(`expected ${RULE_SHAPE}`);
  const target = text.slice(0, equals).trim();
  const [rateText = "", ...options] = text.slice(equals + 1).split(",");
  const colon = target.indexOf(":");
  const level = colon < 0 ? target : target.slice(0, colon);
  if (!isLevel(level)) return failed(`unknown level "${clip(level)}": use tenant, principal or tool`);
  const rule: Partial<RateLimitRule> = { per: level };
  if (colon >= 0) {
    const id = target.slice(colon + 1);
    if (!IDENTIFIER.test(id))
      return failed(`"${clip(id)}" is not a ${level} id (letters, digits, . _ : @ / -)`);
    rule[level] = id;
  }
  const rate = parseRate(rateText);
  if (!rate.ok) return rate;
  let burst: number | undefined;
  for (const option of options) {
    const value = /^\s*burst=(\d+)\s*$/.exec(option)?.[1];
    if (value === undefined) return failed(`unknown option "${clip(option)}": the only one is burst=N`);
    burst = Number(value);
  }
  return withBurst({ ...rule, per: level, ...rate.value }, burst);
}

function withBurst(rule: RateLimitRule, burst: number | undefined): Parsed<RateLimitRule> {
  if (burst === undefined) return { ok: true, value: rule };
  if (burst < 1 || burst > rule.limit)
    return failed(`burst=${burst} must be from 1 to the count, ${rule.limit}`);
  return { ok: true, value: { ...rule, burst } };
}

function isLevel(value: string): value is CeilingLevel {
  return (CEILING_LEVELS as readonly string[]).includes(value);
}

function failed(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** Turns a parse result into a zod issue, so the config file's errors carry their JSON path. */
function refined<T>(parsed: Parsed<T>, context: z.RefinementCtx): T {
  if (parsed.ok) return parsed.value;
  context.addIssue({ code: "custom", message: parsed.message });
  return z.NEVER;
}

export const RateSchema = z
  .string()
  .transform((text, context) => refined(parseRate(text), context))
  .meta({
    description: "COUNT/WINDOW, the window in s, min, hour or day, optionally a multiple: 100/min, 5/10s",
  });

const Identifier = z.string().regex(IDENTIFIER, "must be an id: letters, digits, . _ : @ / -");

const RateLimitRuleObject = z
  .strictObject({
    per: z.enum(CEILING_LEVELS as [CeilingLevel, ...CeilingLevel[]]).meta({
      description: "what one counter counts: a tenant's calls, a principal's, or a principal's of one tool",
    }),
    rate: RateSchema,
    burst: z.int().min(1).optional().meta({ description: "at most this many at once, refilled at the rate" }),
    tenant: Identifier.optional().meta({ description: "only this tenant's calls" }),
    principal: Identifier.optional().meta({ description: "only calls of principals with this id" }),
    tool: Identifier.optional().meta({ description: "only calls of this tool" }),
  })
  .transform(({ rate, burst, ...rule }, context) => refined(withBurst({ ...rule, ...rate }, burst), context));

/** A rule as a string (`principal=100/min`) or as an object (`{ "per": "tenant", "tool": "crm_write", "rate": "100/min" }`). */
export const RateLimitRuleSchema = z.union([
  z
    .string()
    .transform((text, context) => refined(parseRateLimitRule(text), context))
    .meta({ description: RULE_SHAPE }),
  RateLimitRuleObject,
]);
