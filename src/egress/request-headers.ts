/**
 * @module The headers a request goes out with: the caller's, checked, plus the deployment's credential for
 * the host, in a header or, for a vendor that takes it only in the URL, as a query parameter.
 */
import { ToolFailure } from "../errors/tool-failure.js";
import type { CredentialScope } from "../seam/consent/credential-inspector.js";
import type { CredentialResolver } from "../seam/context.js";
import { checkCredentialBody, withBodyCredential } from "./body-credential.js";
import type { CredentialExchange, EgressPolicy, HostCredential } from "./egress-policy.js";
import { EgressRefusedError } from "./egress-refused-error.js";
import { matchingPattern } from "./host-pattern.js";
import { hasQueryParameter } from "./query-credential.js";

/** Who the request is made for: what resolves credential references. An ExecutionContext satisfies it. */
export interface EgressCaller {
  readonly credentials: CredentialResolver;
  readonly tenantId: string;
  readonly principalId: string;
}

/** Credentials come only from the deployment's policy, never from a caller (or a model) typing them. */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/**
 * Framing, routing and encoding belong to the client: a caller-set `host` would aim the request at a
 * different virtual host than the one checked, framing headers could smuggle a second request, and a
 * compressed body could not be bounded byte for byte as it streams.
 */
const FORBIDDEN_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "accept-encoding",
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const UNSAFE_VALUE = /[\r\n\0]/;

/** Checks the caller's headers and returns them lower-cased, without the credential. */
export function checkCallerHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  url: string,
): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers ?? {})) {
    const name = rawName.toLowerCase();
    if (!TOKEN.test(rawName) || typeof value !== "string" || UNSAFE_VALUE.test(value)) {
      throw new ToolFailure(
        "invalid_input",
        `header "${rawName.slice(0, 100)}" has an invalid name or value`,
      );
    }
    if (CREDENTIAL_HEADERS.has(name)) {
      throw new EgressRefusedError(
        "credential_header",
        `the ${name} header may not be set by the caller; credentials come from the deployment's credential references`,
        { url, header: name },
      );
    }
    if (FORBIDDEN_HEADERS.has(name)) {
      throw new EgressRefusedError("forbidden_header", `the ${name} header is set by the egress client`, {
        url,
        header: name,
      });
    }
    if (name in checked) throw new ToolFailure("invalid_input", `header "${name}" is given twice`);
    checked[name] = value;
  }
  return checked;
}

/** The credential the policy injects for `host`, if any. */
export function credentialFor(policy: EgressPolicy, host: string): HostCredential | undefined {
  const pattern = matchingPattern(host, Object.keys(policy.credentials));
  return pattern === undefined ? undefined : policy.credentials[pattern];
}

/**
 * What one hop sends: its headers, the query parameter that carries the credential when the host takes it
 * there, the body when the host takes it in the body, and the secret when it is in either (to be redacted).
 */
export interface HopCredentials {
  headers: Record<string, string>;
  query?: { name: string; value: string };
  body?: Buffer;
  secret?: string;
}

/**
 * The headers (and query or body credential) for one hop to `url`: the caller's plus the host's credential,
 * which the caller may not shadow, in a header, a query parameter or a body field of the same name; what
 * the caller sent is checked before the secret is resolved.
 */
export async function credentialsForHop(
  callerHeaders: Readonly<Record<string, string>>,
  url: URL,
  host: string,
  policy: EgressPolicy,
  caller: EgressCaller | undefined,
  named: string,
  body?: Uint8Array,
): Promise<HopCredentials> {
  const headers: Record<string, string> = {
    "user-agent": "toolreg",
    ...callerHeaders,
    "accept-encoding": "identity",
  };
  const credential = credentialFor(policy, host);
  if (!credential) return { headers };
  if (credential.query !== undefined) {
    if (hasQueryParameter(url, credential.query)) {
      throw new EgressRefusedError(
        "credential_query",
        `the ${credential.query} query parameter carries the deployment's credential for ${host} and may not be set by the caller`,
        { url: named, parameter: credential.query },
      );
    }
  } else if (credential.bodyField !== undefined) {
    checkCredentialBody(body, credential.bodyField, callerHeaders, url, host, named);
  } else if (credential.header.toLowerCase() in callerHeaders) {
    const name = credential.header.toLowerCase();
    throw new EgressRefusedError(
      "credential_header",
      `the ${name} header carries the deployment's credential for ${host} and may not be set by the caller`,
      { url: named, header: name },
    );
  }
  const secret = await resolvedSecret(credential, host, caller, named);
  if (credential.query !== undefined)
    return { headers, query: { name: credential.query, value: secret }, secret };
  if (credential.bodyField !== undefined) {
    return {
      headers: { ...headers, "content-type": headers["content-type"] ?? "application/json" },
      // Checked above: a JSON object without the field.
      body: withBodyCredential(body as Uint8Array, credential.bodyField, secret),
      secret,
    };
  }
  headers[credential.header.toLowerCase()] = credential.scheme ? `${credential.scheme} ${secret}` : secret;
  return { headers };
}

/** The secret to send for `credential`, resolved for the caller (and exchanged when it says so). */
async function resolvedSecret(
  credential: HostCredential,
  host: string,
  caller: EgressCaller | undefined,
  url: string,
): Promise<string> {
  if (!caller) {
    throw new EgressRefusedError(
      "credential_unavailable",
      `${host} needs a credential and no caller context was given to resolve it`,
      { url },
    );
  }
  const scope = { tenantId: caller.tenantId, principalId: caller.principalId };
  let secret: string;
  try {
    secret = await caller.credentials.resolve(credential.credentialRef, scope);
  } catch {
    // The resolver's message is not repeated: it is the one place a secret might leak into a result.
    throw new EgressRefusedError(
      "credential_unavailable",
      `the credential "${credential.credentialRef}" for ${host} could not be resolved`,
      { url },
    );
  }
  if (credential.exchange && typeof secret === "string" && secret.length > 0) {
    secret = await exchanged(credential, credential.exchange, secret, scope, host, url);
  }
  if (typeof secret !== "string" || secret.length === 0 || UNSAFE_VALUE.test(secret)) {
    throw new EgressRefusedError(
      "credential_unavailable",
      `the credential "${credential.credentialRef}" for ${host} resolved to an unusable value`,
      { url },
    );
  }
  return secret;
}

/** What `exchange` trades the secret for; its own ToolFailure (a timeout, the vendor's refusal) is kept as worded. */
async function exchanged(
  credential: HostCredential,
  exchange: CredentialExchange,
  secret: string,
  scope: CredentialScope,
  host: string,
  url: string,
): Promise<string> {
  try {
    return await exchange.mint(secret, scope);
  } catch (error) {
    if (ToolFailure.isInstance(error)) throw error;
    // Any other error's message could quote the secret it was handed.
    throw new EgressRefusedError(
      "credential_unavailable",
      `the credential "${credential.credentialRef}" for ${host} could not be exchanged`,
      { url },
    );
  }
}
