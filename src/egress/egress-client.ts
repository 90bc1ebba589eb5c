/** @module The egress client: the only way a tool reaches the network, every hop checked, pinned and bounded. */
import type { IncomingHttpHeaders } from "node:http";
import { rootCertificates } from "node:tls";
import type { Dispatcher } from "undici";
import { ToolFailure } from "../errors/tool-failure.js";
import { endHttpClientSpan, startHttpClientSpan } from "../telemetry/http-client-span.js";
import { type CheckedTarget, checkHost, checkTarget } from "./check-target.js";
import { type Resolver, systemResolver } from "./dns-resolver.js";
import { type EgressPolicy, type EgressPolicyInit, resolveEgressPolicy } from "./egress-policy.js";
import { EgressRefusedError } from "./egress-refused-error.js";
import { normaliseHost } from "./host-pattern.js";
import { PinnedPools } from "./pinned-pools.js";
import {
  containsSecret,
  pathWithQueryParameter,
  scrubBodySecrets,
  scrubSecrets,
  withoutQueryParameter,
} from "./query-credential.js";
import { readCappedBody } from "./read-capped-body.js";
import { redactUrl } from "./redact-url.js";
import {
  checkCallerHeaders,
  credentialFor,
  credentialsForHop,
  type EgressCaller,
} from "./request-headers.js";
import { SessionCookies } from "./session-cookies.js";
import { streamCappedBody } from "./stream-capped-body.js";
import { translateFailure } from "./translate-failure.js";

export const EGRESS_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type EgressMethod = (typeof EGRESS_METHODS)[number];

export interface EgressRequestInit {
  method?: EgressMethod;
  headers?: Readonly<Record<string, string>>;
  /** Refused before sending when longer than the policy's `maxRequestBytes`. */
  body?: string | Uint8Array;
  /** The call's signal: aborting it ends the request. */
  signal?: AbortSignal;
  /** Total time allowed; never more than the policy's `totalTimeoutMs`. */
  timeoutMs?: number;
  /** Response bytes kept; never more than the policy's `maxResponseBytes`. */
  maxResponseBytes?: number;
  /** Resolves the credential the policy injects for a host; a ToolContext will do. */
  caller?: EgressCaller;
  /**
   * `manual`: a redirect is the answer, its `location` header in it, neither followed nor refused, for a
   * caller that must judge the next hop itself (a signed URL on another host, sent without the credential).
   * Otherwise the policy's `followRedirects` decides.
   */
  redirect?: "manual";
  /**
   * The body handed on as it arrives (`stream`), for a reader that must act before it ends; `body` is then
   * empty. Still bounded by the cap and the time limit.
   */
  streamed?: boolean;
}

export interface EgressResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The URL that answered, after any redirects followed. */
  url: string;
  /** The URLs redirected from, in order; empty when none was followed. */
  redirects: readonly string[];
  /** The validated address the connection was pinned to. */
  address: string;
  body: Buffer;
  bytesRead: number;
  /** True when the body went on past the cap: `body` holds the first `bytesRead` bytes only. */
  truncated: boolean;
  /** The body as it arrives, when the request asked for `streamed`. */
  stream?: ReadableStream<Uint8Array>;
}

export interface EgressClientOptions {
  policy?: EgressPolicyInit;
  /** Name resolution; the operating system's by default. */
  resolver?: Resolver;
  /**
   * PEM certificates of authorities trusted besides Node's bundled ones: a deployment's private CA, or a
   * test's own HTTPS server on 127.0.0.1.
   */
  extraCertificates?: readonly string[];
  /**
   * Keep the cookies servers set (on every hop, redirects included) and send them back where they match,
   * for a vendor whose anonymous session lives in a cookie (Yahoo Finance's crumb). For anonymous vendor
   * sessions only: the jar belongs to this client, and one toolkit binding's client serves every tenant and
   * principal of the deployment, so a per-user login here would be shared by all of them. A caller's own
   * `Cookie` header stays refused either way.
   */
  sessionCookies?: boolean;
}

/** A host and port the policy let through for a connection the caller opens itself, with the address to use. */
export interface CheckedConnection {
  /** The host as matched: lower case, no trailing dot, no brackets. */
  host: string;
  port: number;
  address: string;
  family: 4 | 6;
  /**
   * The authorities a TLS connection there trusts, when the client trusts some besides Node's bundled ones
   * (those included); absent means Node's own.
   */
  ca?: readonly string[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export class EgressClient {
  readonly policy: EgressPolicy;
  readonly #resolver: Resolver;
  readonly #pools: PinnedPools;
  readonly #ca: readonly string[] | undefined;
  readonly #cookies: SessionCookies | undefined;

  constructor(options: EgressClientOptions = {}) {
    this.policy = resolveEgressPolicy(options.policy);
    this.#resolver = options.resolver ?? systemResolver;
    this.#cookies = options.sessionCookies ? new SessionCookies() : undefined;
    this.#ca = options.extraCertificates ? [...rootCertificates, ...options.extraCertificates] : undefined;
    this.#pools = new PinnedPools({
      connectTimeoutMs: this.policy.connectTimeoutMs,
      ...(this.#ca ? { ca: this.#ca } : {}),
    });
  }

  /**
   * Sends one request. Refusals throw an EgressRefusedError (`egress_refused`), timeouts and aborts a
   * `timeout` ToolFailure, network failures an `upstream_error` one; an HTTP error status is a response.
   */
  async request(input: string | URL, init: EgressRequestInit = {}): Promise<EgressResponse> {
    const policy = this.policy;
    const method = init.method ?? "GET";
    if (!EGRESS_METHODS.includes(method))
      throw new ToolFailure("invalid_input", `${method} is not a supported method`);
    let url = parseUrl(input);
    const body = typeof init.body === "string" ? Buffer.from(init.body) : init.body;
    if (body !== undefined && (method === "GET" || method === "HEAD")) {
      throw new ToolFailure("invalid_input", `a ${method} request has no body`);
    }
    if (body !== undefined) withinRequestCap(body, policy, url);
    const callerHeaders = checkCallerHeaders(init.headers, redactUrl(url));
    const timeoutMs = Math.max(1, Math.min(init.timeoutMs ?? policy.totalTimeoutMs, policy.totalTimeoutMs));
    const cap = Math.max(
      0,
      Math.min(init.maxResponseBytes ?? policy.maxResponseBytes, policy.maxResponseBytes),
    );
    const timer = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([timer, init.signal]) : timer;
    const redirects: string[] = [];
    // The secrets this request has put in a query: no text the client reports may hold one.
    const sent: string[] = [];
    const failureOf = (error: unknown) =>
      translateFailure(error, {
        url: redactUrl(url),
        timedOut: timer.aborted,
        aborted: init.signal?.aborted === true,
        timeoutMs,
        secrets: sent,
      });

    try {
      for (;;) {
        const target = await checkTarget(url, policy, this.#resolver, signal);
        const hop = await credentialsForHop(
          callerHeaders,
          url,
          target.host,
          policy,
          init.caller,
          redactUrl(url),
          body,
        );
        const { headers, query } = hop;
        // Asked only once the hop is allowed, so no cookie goes to a host the policy refuses.
        const cookie = await this.#cookies?.header(url);
        if (cookie !== undefined) headers.cookie = headers.cookie ? `${headers.cookie}; ${cookie}` : cookie;
        if (hop.secret !== undefined) sent.push(hop.secret);
        const hopBody = hop.body ? withinRequestCap(hop.body, policy, url) : body;
        const pool = this.#pools.get(url.origin, target.host, target.address, target.family);
        // The span names `url`, the caller's: the query credential is only in the path sent.
        const span = startHttpClientSpan(method, url, redactUrl(url), headers);
        let response: Dispatcher.ResponseData;
        try {
          response = await pool.request({
            path: query
              ? pathWithQueryParameter(url, query.name, query.value)
              : `${url.pathname}${url.search}`,
            method,
            headers,
            body: hopBody,
            signal,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          });
        } catch (error) {
          endHttpClientSpan(span, { error: failureOf(error).code });
          throw error;
        }
        endHttpClientSpan(span, { status: response.statusCode });
        await this.#cookies?.store(url, response.headers["set-cookie"]);
        const next =
          init.redirect === "manual" ? undefined : redirectTarget(response.statusCode, response.headers, url);
        if (next === undefined) {
          const read = init.streamed
            ? {
                body: Buffer.alloc(0),
                bytesRead: 0,
                truncated: false,
                stream: streamCappedBody(response.body, cap, redactUrl(url), failureOf),
              }
            : await readCappedBody(response.body, cap);
          if (sent.length > 0) read.body = scrubBodySecrets(read.body, sent);
          return {
            status: response.statusCode,
            headers: flattenHeaders(response.headers, sent),
            url: url.href,
            redirects,
            address: target.address,
            ...read,
          };
        }
        // Read a short redirect body so the connection can be reused; dump() drops a long one.
        await response.body.dump({ limit: 16 * 1024, signal });
        refuseRedirect(policy, method, url, next, response.statusCode, redirects.length, sent);
        redirects.push(url.href);
        url = nextHop(policy, url, next, sent);
      }
    } catch (error) {
      throw failureOf(error);
    }
  }

  /**
   * Checks a URL as a request to it would be checked (scheme, host lists, every address its name resolves
   * to) and returns the one address to connect to, for a caller that opens the connection itself (the
   * browser's proxy). Refusals throw as `request` does.
   */
  checkTarget(input: string | URL, signal?: AbortSignal): Promise<CheckedTarget> {
    const timer = AbortSignal.timeout(this.policy.connectTimeoutMs);
    return checkTarget(
      parseUrl(input),
      this.policy,
      this.#resolver,
      signal ? AbortSignal.any([timer, signal]) : timer,
    );
  }

  /**
   * Checks a host and port for a connection that is not HTTP (an SMTP relay) through the same host lists and
   * address rules, and returns the one address to connect to: the caller connects there and uses the host
   * name only for TLS (SNI and the certificate), so a second DNS answer cannot move the connection.
   * Refusals throw as `request` does; a host that is not one (a path, a user, a bad port) is `invalid_input`.
   */
  async checkConnection(host: string, port: number, signal?: AbortSignal): Promise<CheckedConnection> {
    const named = `${host.slice(0, 200)}:${port}`;
    // Parsed as a URL's host would be, so decimal or hex IPv4 forms become the dotted quads checked.
    const url = URL.canParse(`http://${host}:${port}/`) ? new URL(`http://${host}:${port}/`) : undefined;
    if (
      !url ||
      !Number.isInteger(port) ||
      port < 1 ||
      port > 65_535 ||
      url.pathname !== "/" ||
      url.username !== "" ||
      url.password !== "" ||
      url.search !== "" ||
      url.hash !== ""
    ) {
      throw new ToolFailure("invalid_input", `${named} is not a host and port to connect to`);
    }
    const timer = AbortSignal.timeout(this.policy.connectTimeoutMs);
    const normalised = normaliseHost(url.hostname);
    const { address, family } = await checkHost(
      normalised,
      named,
      this.policy,
      this.#resolver,
      signal ? AbortSignal.any([timer, signal]) : timer,
    );
    return { host: normalised, port, address, family, ...(this.#ca ? { ca: this.#ca } : {}) };
  }

  /** Closes every pooled connection; requests in flight finish first. */
  close(): Promise<void> {
    return this.#pools.close();
  }
}

/** A client over the default policy overlaid with `options.policy`. */
export function createEgressClient(options: EgressClientOptions = {}): EgressClient {
  return new EgressClient(options);
}

function parseUrl(input: string | URL): URL {
  try {
    return new URL(String(input));
  } catch {
    // Cut before any query: it may hold a key even when the rest does not parse.
    const named = String(input).split(/[?#]/)[0] ?? "";
    throw new ToolFailure("invalid_input", `"${named.slice(0, 200)}" is not an absolute URL`);
  }
}

function redirectTarget(status: number, headers: IncomingHttpHeaders, base: URL): URL | undefined {
  const location = headers.location;
  if (!REDIRECT_STATUSES.has(status) || typeof location !== "string") return undefined;
  try {
    return new URL(location, base);
  } catch {
    throw new ToolFailure("upstream_error", `${redactUrl(base)} redirected to an invalid location`, {
      details: { url: redactUrl(base), status },
    });
  }
}

/** `body`, unless it is over the policy's request cap (checked again once a body credential is in it). */
function withinRequestCap<T extends Uint8Array>(body: T, policy: EgressPolicy, url: URL): T {
  if (body.byteLength <= policy.maxRequestBytes) return body;
  throw new EgressRefusedError(
    "request_body_size",
    `the request body is ${body.byteLength} bytes, over the ${policy.maxRequestBytes}-byte cap`,
    { url: redactUrl(url), bytes: body.byteLength, limit: policy.maxRequestBytes },
  );
}

/** Throws unless this hop may be followed; the next hop is then checked like the first. */
function refuseRedirect(
  policy: EgressPolicy,
  method: string,
  from: URL,
  to: URL,
  status: number,
  followed: number,
  sent: readonly string[],
): void {
  // Both ends are named without their query: a redirect's location is often a signed URL.
  const [fromUrl, toUrl] = [redactUrl(from), shownLocation(to, sent)];
  const details = { url: fromUrl, location: toUrl, status };
  if (!policy.followRedirects) {
    throw new EgressRefusedError(
      "redirect",
      `${fromUrl} redirected (${status}) to ${toUrl}, which was not followed: the egress policy does not follow redirects`,
      details,
    );
  }
  // A write sent on to another address is a second side effect that nobody approved.
  if (method !== "GET" && method !== "HEAD") {
    throw new EgressRefusedError(
      "redirect_method",
      `${fromUrl} redirected a ${method} (${status}) to ${toUrl}, which was not followed: only GET and HEAD redirects are`,
      details,
    );
  }
  if (followed >= policy.maxRedirects) {
    throw new EgressRefusedError(
      "redirect_limit",
      `${fromUrl} redirected (${status}) to ${toUrl} after ${followed} redirects; at most ${policy.maxRedirects} are followed`,
      { ...details, hops: followed },
    );
  }
}

/**
 * The URL a followed redirect goes to. A server may echo the query credential in its location: sent back
 * to a host with the same query credential, that parameter is dropped (the next hop sets it afresh); a
 * location holding the secret anywhere else, or bound for another host, is refused, so the secret neither
 * goes where it was not configured to nor stays in a URL the client reports.
 */
function nextHop(policy: EgressPolicy, from: URL, to: URL, sent: readonly string[]): URL {
  const credential = credentialFor(policy, normaliseHost(to.hostname));
  const next = credential?.query !== undefined ? withoutQueryParameter(to, credential.query) : to;
  if (containsSecret(next.href, sent)) {
    throw new EgressRefusedError(
      "redirect_credential",
      `${redactUrl(from)} redirected to ${shownLocation(next, sent)} with the deployment's credential in the URL, which was not followed`,
      { url: redactUrl(from), location: shownLocation(next, sent) },
    );
  }
  return next;
}

/** A location as a message names it: without its query, and without its path when that holds a secret. */
function shownLocation(url: URL, sent: readonly string[]): string {
  const shown = redactUrl(url);
  return containsSecret(shown, sent) ? `${url.origin}/…` : shown;
}

/** Lower-cased names, repeated values joined; a secret a server echoed (a redirect's location) is redacted. */
function flattenHeaders(headers: IncomingHttpHeaders, sent: readonly string[]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(", ") : value;
    flat[name.toLowerCase()] = sent.length > 0 ? scrubSecrets(joined, sent) : joined;
  }
  return flat;
}
