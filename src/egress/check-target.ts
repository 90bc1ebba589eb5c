/** @module Checks one URL against the policy: scheme, host lists, then every address the host resolves to. */
import { isIP } from "node:net";
import { ToolFailure } from "../errors/tool-failure.js";
import { checkAddress } from "./address-policy.js";
import type { AddressClassification } from "./classify-address.js";
import type { ResolvedAddress, Resolver } from "./dns-resolver.js";
import type { EgressPolicy } from "./egress-policy.js";
import { EgressRefusedError } from "./egress-refused-error.js";
import { matchingPattern, normaliseHost } from "./host-pattern.js";
import { redactUrl } from "./redact-url.js";

/** A URL the policy let through, with the one address the connection is pinned to. */
export interface CheckedTarget {
  url: URL;
  /** The host as matched: lower case, no trailing dot, no brackets. */
  host: string;
  address: string;
  family: 4 | 6;
}

const SCHEMES = new Set(["http:", "https:"]);

/** Throws an EgressRefusedError naming the rule that fired, or returns the address to pin. */
export async function checkTarget(
  url: URL,
  policy: EgressPolicy,
  resolver: Resolver,
  signal: AbortSignal,
): Promise<CheckedTarget> {
  const named = redactUrl(url);
  if (!SCHEMES.has(url.protocol)) {
    throw new EgressRefusedError("scheme", `${url.protocol} URLs are not fetched; only http and https are`, {
      url: named,
    });
  }
  if (url.username || url.password) {
    throw new EgressRefusedError(
      "url_credentials",
      "the URL carries a user name or password; credentials come from the deployment's credential references",
      { url: named },
    );
  }
  const { address, family } = await checkHost(normaliseHost(url.hostname), named, policy, resolver, signal);
  return { url, host: normaliseHost(url.hostname), address, family };
}

/**
 * The host lists and address rules alone, for a check of any connection (a URL's host, or an SMTP relay's):
 * throws an EgressRefusedError naming the rule that fired (`named` is what its details call the target), or
 * returns the one address to pin.
 */
export async function checkHost(
  host: string,
  named: string,
  policy: EgressPolicy,
  resolver: Resolver,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
  const denied = matchingPattern(host, policy.denyHosts);
  if (denied) {
    throw new EgressRefusedError("host_denied", `${host} matches "${denied}" in the deny list`, {
      url: named,
    });
  }
  if (policy.allowHosts && !matchingPattern(host, policy.allowHosts)) {
    throw new EgressRefusedError("host_not_allowed", `${host} is not in the allow list`, { url: named });
  }

  // WHATWG URL parsing has already turned decimal, octal and hex IPv4 forms into dotted quads.
  const literal = isIP(host);
  const answers: readonly ResolvedAddress[] = literal
    ? [{ address: host, family: literal === 6 ? 6 : 4 }]
    : await resolve(resolver, host, named, signal);
  // Every answer is checked, not just the one used: a name that points anywhere forbidden is refused whole.
  for (const answer of answers) {
    const verdict = checkAddress(answer.address, policy);
    if (!verdict.allowed) {
      const subject = literal ? host : `${host} resolved to ${answer.address}, which`;
      throw new EgressRefusedError(
        verdict.classification.class,
        `${subject} is ${describe(verdict.classification)}; the egress policy does not allow ${verdict.classification.class} addresses`,
        { url: named, address: verdict.classification.address },
      );
    }
  }
  return answers[0] as ResolvedAddress;
}

function describe(classification: AddressClassification): string {
  const article = /^[aeiou]/.test(classification.class) ? "an" : "a";
  const base = `${article} ${classification.class} address`;
  const embedded = classification.embedded;
  return embedded ? `${base} (${embedded.address} carried in ${embedded.form} form)` : base;
}

async function resolve(
  resolver: Resolver,
  host: string,
  named: string,
  signal: AbortSignal,
): Promise<readonly ResolvedAddress[]> {
  signal.throwIfAborted();
  let answers: readonly ResolvedAddress[];
  try {
    answers = await raceAbort(resolver(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    throw new ToolFailure("upstream_error", `could not resolve ${host}${code ? ` (${code})` : ""}`, {
      retryable: code === "EAI_AGAIN",
      details: { url: named },
      cause: error,
    });
  }
  if (answers.length === 0 || answers.some((answer) => isIP(answer.address) === 0)) {
    throw new ToolFailure("upstream_error", `${host} resolved to no usable address`, {
      details: { url: named },
    });
  }
  // The family comes from the address itself, not from what the resolver claimed.
  return answers.map(({ address }) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
}

/** node:dns cannot be cancelled, so the wait for it is. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
