/** @module The egress policy: what outbound requests may reach, how much they may carry, and how long they take. */
import ipaddr from "ipaddr.js";
import type { CredentialScope } from "../seam/consent/credential-inspector.js";
import type { AddressRules } from "./address-policy.js";
import { ADDRESS_CLASSES, type AddressClass } from "./classify-address.js";
import { assertHostPattern } from "./host-pattern.js";

/**
 * Where the secret goes on each request: a header (with an optional scheme before it); for a vendor that
 * takes its key only in the URL (OpenWeather's `appid`, NCBI's `api_key`), a query parameter; for one that
 * takes it only in the request's JSON body (ModelsLab's `key`), a top-level field of that body. Exactly one.
 */
export type CredentialPlacement =
  | {
      /** The header to set, e.g. `authorization` or `x-api-key`. */
      header: string;
      /** Put before the secret with a space, e.g. `Bearer`. */
      scheme?: string;
      query?: never;
      bodyField?: never;
    }
  | {
      /** The query parameter to set, e.g. `appid`: replaced on every request to the host, never shown. */
      query: string;
      header?: never;
      scheme?: never;
      bodyField?: never;
    }
  | {
      /**
       * The top-level field of a JSON object body to set, e.g. `key`: a request to the host without such a
       * body, or whose body already has the field, is refused.
       */
      bodyField: string;
      header?: never;
      scheme?: never;
      query?: never;
    };

/** A credential the client adds for a host; the caller never sees or supplies the secret. */
export type HostCredential = CredentialPlacement & {
  /** Resolved through the call's credential resolver at request time. */
  credentialRef: string;
  /** When the resolved secret is not what is sent but what it is traded for (a GitHub App's key). */
  exchange?: CredentialExchange | undefined;
};

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/**
 * Unreserved characters only: a name no encoding can spell two ways, so a caller cannot slip a second one
 * past (a query parameter, or a body field behind a JSON escape).
 */
const FIELD_NAME = /^[A-Za-z0-9._~-]{1,64}$/;

/** Throws a TypeError (prefixed by `where`) unless `placement` names one header, query parameter or body field. */
export function assertCredentialPlacement(
  placement: { header?: unknown; scheme?: unknown; query?: unknown; bodyField?: unknown },
  where: string,
): void {
  const { header, scheme, query, bodyField } = placement;
  if ([header, query, bodyField].filter((place) => place !== undefined).length !== 1) {
    throw new TypeError(
      `${where}: needs one place for the credential: a header, a query parameter or a body field`,
    );
  }
  if (bodyField !== undefined) {
    if (typeof bodyField !== "string" || !FIELD_NAME.test(bodyField))
      throw new TypeError(`${where}: the body field must be a name of letters, digits and . _ ~ -`);
    if (scheme !== undefined) throw new TypeError(`${where}: a body field takes no scheme`);
    return;
  }
  if (query !== undefined) {
    if (typeof query !== "string" || !FIELD_NAME.test(query))
      throw new TypeError(`${where}: the query parameter must be a name of letters, digits and . _ ~ -`);
    if (scheme !== undefined) throw new TypeError(`${where}: a query parameter takes no scheme`);
    return;
  }
  if (typeof header !== "string" || !HEADER_NAME.test(header))
    throw new TypeError(`${where}: the header must be a header name`);
  if (scheme !== undefined && (typeof scheme !== "string" || !HEADER_NAME.test(scheme)))
    throw new TypeError(`${where}: the scheme must be a single word`);
}

/**
 * A credential traded before use: a long-lived secret (a GitHub App's private key, a client secret) turned
 * into the short-lived token that is sent. The secret stays with the exchange; what it throws must not hold
 * it (a ToolFailure is the call's failure as worded, anything else becomes "could not be exchanged").
 */
export interface CredentialExchange {
  /** What is sent for `secret`, for this caller: usually a cached token, minted anew when stale. */
  mint(secret: string, scope: CredentialScope): Promise<string>;
  /** The host refused what `mint` gave this caller (its 401): forget it, so the next request mints anew. */
  forget?(scope: CredentialScope): void;
}

export interface EgressPolicy extends AddressRules {
  /** Hosts that may be reached (exact or `*.suffix`); `undefined` means any host the other rules allow. */
  readonly allowHosts: readonly string[] | undefined;
  /** Hosts that may never be reached; wins over `allowHosts`. */
  readonly denyHosts: readonly string[];
  /** Off by default: a redirect is reported, not followed. */
  readonly followRedirects: boolean;
  /** Hops followed when `followRedirects` is on; at most 5. */
  readonly maxRedirects: number;
  readonly maxRequestBytes: number;
  readonly maxResponseBytes: number;
  readonly connectTimeoutMs: number;
  /** From the first byte sent to the last byte read, redirects included. */
  readonly totalTimeoutMs: number;
  /** Host pattern → the credential injected into requests to that host. */
  readonly credentials: Readonly<Record<string, HostCredential>>;
}

export type EgressPolicyInit = Partial<EgressPolicy>;

/** The hard ceiling on redirect hops: a longer chain is a loop or an attempt to wear the checks down. */
export const MAX_REDIRECTS = 5;

/** Public addresses only, any host, redirects refused, 1 MiB out, 5 MiB in, 5 s to connect, 30 s in all. */
export const DEFAULT_EGRESS_POLICY: EgressPolicy = Object.freeze({
  allowHosts: undefined,
  denyHosts: Object.freeze([]),
  allowAddressClasses: Object.freeze(["public"] as AddressClass[]),
  allowCidrs: Object.freeze([]),
  followRedirects: false,
  maxRedirects: MAX_REDIRECTS,
  maxRequestBytes: 1024 * 1024,
  maxResponseBytes: 5 * 1024 * 1024,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 30_000,
  credentials: Object.freeze({}),
});

/** The defaults overlaid with `init`, checked and frozen. Throws a TypeError naming the bad field. */
export function resolveEgressPolicy(init: EgressPolicyInit = {}): EgressPolicy {
  const policy = { ...DEFAULT_EGRESS_POLICY, ...stripUndefined(init) };
  for (const pattern of policy.allowHosts ?? []) assertHostPattern(pattern, "egress policy allowHosts");
  for (const pattern of policy.denyHosts) assertHostPattern(pattern, "egress policy denyHosts");
  for (const name of policy.allowAddressClasses) {
    if (!ADDRESS_CLASSES.includes(name)) {
      throw new TypeError(`egress policy allowAddressClasses: "${name}" is not an address class`);
    }
  }
  for (const cidr of policy.allowCidrs) {
    if (!ipaddr.isValidCIDR(cidr)) throw new TypeError(`egress policy allowCidrs: "${cidr}" is not a CIDR`);
  }
  if (
    !Number.isInteger(policy.maxRedirects) ||
    policy.maxRedirects < 0 ||
    policy.maxRedirects > MAX_REDIRECTS
  ) {
    throw new TypeError(`egress policy maxRedirects: must be a whole number from 0 to ${MAX_REDIRECTS}`);
  }
  for (const field of [
    "maxRequestBytes",
    "maxResponseBytes",
    "connectTimeoutMs",
    "totalTimeoutMs",
  ] as const) {
    if (!Number.isInteger(policy[field]) || policy[field] <= 0) {
      throw new TypeError(`egress policy ${field}: must be a positive whole number`);
    }
  }
  for (const [pattern, credential] of Object.entries(policy.credentials)) {
    assertHostPattern(pattern, "egress policy credentials");
    assertCredentialPlacement(credential, `egress policy credentials["${pattern}"]`);
    if (!credential.credentialRef) {
      throw new TypeError(`egress policy credentials["${pattern}"]: needs a credentialRef`);
    }
  }
  return Object.freeze({
    ...policy,
    allowHosts: policy.allowHosts ? Object.freeze([...policy.allowHosts]) : undefined,
    denyHosts: Object.freeze([...policy.denyHosts]),
    allowAddressClasses: Object.freeze([...policy.allowAddressClasses]),
    allowCidrs: Object.freeze([...policy.allowCidrs]),
    credentials: Object.freeze({ ...policy.credentials }),
  });
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
