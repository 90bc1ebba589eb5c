/**
 * @module Failed authentication, throttled per client address. A wrong or revoked API key, a session cookie
 * that names no live session, and a login token that is unknown or spent each count against the address
 * they came from; past the limit (20 a minute unless the deployment says otherwise) every request from
 * that address to an authenticated route is answered 429 with Retry-After, *before* its credential is
 * looked at: a guesser learns nothing and costs no hashing or lookup.
 *
 * The right key from a throttled address is refused too. Letting it through would mean verifying every
 * key, wrong ones included, and then the 429-or-200 difference tells a holder of a leaked list which keys
 * still work, at any rate. The price is that a user sharing an address with the guesser (a NAT, or every
 * client behind a proxy the server was not told about) waits out the window; the limit counts failures
 * only, so a working client never trips it. Behind a reverse proxy, set `trustProxy` to the number of
 * proxies that append to X-Forwarded-For, and only then: otherwise a client could write any address into
 * that header. IPv6 clients are counted per /64, the block one host is usually given.
 *
 * Memory is bounded: a fixed ring per address, at most `maxAddresses` addresses (the least recently failed
 * are forgotten first), and an address whose failures have all left the window is dropped when next seen.
 */
import { isIPv6 } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";
import ipaddr from "ipaddr.js";
import { SlidingCount, type WindowShape, windowShape } from "../policy/sliding-count.js";
import { problem } from "./problem.js";

export interface AuthFailureSettings {
  /** Failures one address may make in a window; the next request is refused until one leaves it. */
  limit: number;
  windowMs: number;
  /** How many proxies in front of the server append the address they saw to X-Forwarded-For; 0 by default. */
  trustProxy?: number;
  /** How many addresses are tracked at most; 10,000 unless given. */
  maxAddresses?: number;
  /** Epoch milliseconds; injectable for tests. */
  clock?: () => number;
}

const MAX_ADDRESSES = 10_000;
/** Slots per window: throttling needs no finer grain than a twelfth of it. */
const SLOTS = 12;
const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
/** An IPv4 address as a dual-stack socket reports it, mapped into IPv6. */
const MAPPED_IPV4 = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

export class AuthFailures {
  readonly #limit: number;
  readonly #shape: WindowShape;
  readonly #trustProxy: number;
  /** Addresses the young generation holds before it ages: half the bound, so both hold at most the bound. */
  readonly #generation: number;
  readonly #now: () => number;
  /**
   * Two generations: failures go to the young one; when it is half the bound, the old one is dropped and
   * the young one ages. An address that fails again moves back to the young one, so the least recently
   * failed are forgotten first, in O(1) (evicting one entry at a time from a Map's front is not: V8 walks
   * the holes the deletions left).
   */
  #young = new Map<string, SlidingCount>();
  #old = new Map<string, SlidingCount>();

  constructor(settings: AuthFailureSettings) {
    if (!Number.isSafeInteger(settings.limit) || settings.limit < 1) {
      throw new RangeError("authFailures.limit is a whole number, at least 1");
    }
    const maxAddresses = settings.maxAddresses ?? MAX_ADDRESSES;
    if (!Number.isSafeInteger(maxAddresses) || maxAddresses < 2) {
      throw new RangeError("authFailures.maxAddresses is a whole number, at least 2");
    }
    this.#limit = settings.limit;
    this.#shape = windowShape(settings.windowMs, SLOTS);
    this.#trustProxy = settings.trustProxy ?? 0;
    this.#generation = Math.floor(maxAddresses / 2);
    this.#now = settings.clock ?? Date.now;
  }

  /** Addresses with failures in memory. */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** The address a request's failures count against: the socket's peer, or what trusted proxies recorded. */
  addressOf(c: Context): string {
    return clientAddressOf(c, this.#trustProxy);
  }

  /** The 429 for an address that failed too often, decided before any credential is looked at. */
  refusal(address: string): Response | undefined {
    const count = this.#young.get(address) ?? this.#old.get(address);
    if (!count) return undefined;
    const now = this.#now();
    const waitMs = count.msUntilBelow(this.#limit, now);
    if (waitMs === 0) {
      if (count.count(now) === 0) {
        this.#young.delete(address);
        this.#old.delete(address);
      }
      return undefined;
    }
    const seconds = Math.ceil(waitMs / 1000);
    return problem(
      429,
      "too_many_auth_failures",
      `too many failed authentications from this address; retry in ${seconds} s`,
      { retryAfterMs: waitMs },
      { "retry-after": String(seconds) },
    );
  }

  /** Counts a failed authentication against the address. */
  failed(address: string): void {
    const now = this.#now();
    let count = this.#young.get(address);
    if (!count) {
      count = this.#old.get(address) ?? new SlidingCount(this.#shape, now);
      this.#old.delete(address);
      if (this.#young.size >= this.#generation) {
        this.#old = this.#young;
        this.#young = new Map();
      }
      this.#young.set(address, count);
    }
    count.add(now);
  }
}

/** The client a request counts against (see `clientKey`): the socket's peer, or what `trustProxy` proxies recorded. */
export function clientAddressOf(c: Context, trustProxy: number): string {
  const forwarded = trustProxy > 0 ? c.req.header("x-forwarded-for") : undefined;
  if (forwarded !== undefined) {
    const hops = forwarded.split(",").map((hop) => hop.trim());
    // Each trusted proxy appended the address it saw: the client is that many entries from the end.
    return clientKey(hops[Math.max(0, hops.length - trustProxy)]);
  }
  return clientKey(socketAddress(c));
}

/** The peer address from @hono/node-server; undefined where there is no socket (a request made in process). */
function socketAddress(c: Context): string | undefined {
  return c.env && "incoming" in c.env ? getConnInfo(c).remote.address : undefined;
}

/** One key per client: IPv4 as is (also when mapped into IPv6), IPv6 by its /64. */
export function clientKey(address: string | undefined): string {
  if (address === undefined) return "unknown";
  if (IPV4.test(address)) return address;
  // Every request to an authenticated route comes here: the common forms are read without ipaddr's parser
  // (a few microseconds a parse), and the rest are parsed once.
  const mapped = MAPPED_IPV4.exec(address)?.[1];
  if (mapped !== undefined) return mapped;
  if (!isIPv6(address))
    return ipaddr.IPv4.isValid(address) ? ipaddr.IPv4.parse(address).toString() : "unknown";
  const { parts } = ipaddr.IPv6.parse(address);
  // ::ffff:0:0/96 (ipaddr's isIPv4MappedAddress classifies every range to say so, ten times the cost).
  if (parts.slice(0, 5).every((part) => part === 0) && parts[5] === 0xffff) {
    return [parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff].join(".");
  }
  const prefix = parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}
