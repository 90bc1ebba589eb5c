/** @module Host patterns for allow, deny and credential lists: an exact host, or `*.suffix` for its subdomains. */

import { isIpAddress } from "./classify-address.js";

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * Normalises a URL host for matching: lower case, no trailing dot (`example.com.` is `example.com`), and
 * IPv6 without brackets.
 */
export function normaliseHost(host: string): string {
  let value = host.toLowerCase();
  if (value.startsWith("[") && value.endsWith("]")) value = value.slice(1, -1);
  return value.endsWith(".") ? value.slice(0, -1) : value;
}

/** Throws a TypeError unless `pattern` is an exact host (a name or an IP address) or `*.` and a name. */
export function assertHostPattern(pattern: string, where: string): void {
  const wildcard = pattern.startsWith("*.");
  const host = normaliseHost(wildcard ? pattern.slice(2) : pattern);
  const valid = wildcard ? isName(host) : isName(host) || isIpAddress(host);
  if (!valid) throw new TypeError(`${where}: "${pattern}" is not a host or "*.suffix" pattern`);
}

/**
 * True when `host` matches `pattern`. `*.example.com` matches every subdomain of example.com but not
 * example.com itself: list both to allow both, so the apex is never let in by a reader's assumption.
 */
export function hostMatches(host: string, pattern: string): boolean {
  const target = normaliseHost(host);
  if (pattern.startsWith("*.")) return target.endsWith(`.${normaliseHost(pattern.slice(2))}`);
  return target === normaliseHost(pattern);
}

/** The first pattern in `patterns` that `host` matches. */
export function matchingPattern(host: string, patterns: Iterable<string>): string | undefined {
  for (const pattern of patterns) if (hostMatches(host, pattern)) return pattern;
  return undefined;
}

function isName(host: string): boolean {
  return host.length > 0 && host.length <= 253 && host.split(".").every((label) => LABEL.test(label));
}
