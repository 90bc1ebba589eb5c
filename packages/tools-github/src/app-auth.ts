/**
 * @module A GitHub App's installation token, minted from the App's private key when the toolkit's
 * requests need it: the credential exchange behind `app` in the configuration. The key is resolved per
 * call like any credential; a JWT signed with it (RS256, `iss` the App, at most 10 minutes) is traded at
 * `POST /app/installations/{id}/access_tokens`, through egress to the API host alone, for a token that
 * lasts an hour. Tokens are kept per tenant and key until shortly before they expire, one mint is shared
 * by the calls that wait for it, and a token GitHub refuses (401) is forgotten so the next call mints anew.
 *
 * Signed with node:crypto rather than @octokit/auth-app, which could send through egress (its `request`
 * option takes a custom fetch) and runs on Node 20: it holds one key per instance and its own cache keyed
 * by installation, while here the key is resolved per call and tenant and may be rotated, concurrent
 * mints must be shared and a refused token dropped. That cache and that sharing are ours either way, and
 * what would be left to the library is one signature and one POST, not worth its seven dependencies.
 */
import { createHash, createPrivateKey, type KeyObject, sign } from "node:crypto";
import {
  type CredentialExchange,
  type CredentialPlacement,
  type EgressClient,
  ToolFailure,
  type ToolkitHost,
} from "toolreg/toolkit";

/** What `app` names in the configuration. */
export interface GithubAppConfig {
  /** The App's ID or client ID: the JWT's issuer. */
  appId: number | string;
  installationId: number;
  /** Resolves to the App's private key (PEM), as GitHub gave it. */
  privateKeyRef: string;
}

export interface GithubAppExchangeOptions {
  app: GithubAppConfig;
  /** The REST API root, without a trailing slash. */
  baseUrl: string;
  /** Reaches the API host only, carrying the App's JWT (`appJwtExchange`) and no other credential. */
  mintEgress: EgressClient;
  /** Milliseconds since the epoch; a test's clock moves a cached token past its expiry. */
  now?: () => number;
}

/** A token is minted anew this long before GitHub's `expires_at`, so none expires mid-call. */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
/** GitHub's advice against clock drift: the JWT is dated a minute back. */
const JWT_BACKDATE_S = 60;
/** GitHub refuses a JWT that lives more than 10 minutes; 9 ahead of now leaves room for a fast clock. */
const JWT_AHEAD_S = 9 * 60;

interface Minted {
  token: string;
  refreshAt: number;
}

/**
 * The credential GitHub's requests carry when the toolkit acts as an App installation: the private key
 * `privateKeyRef` resolves to, exchanged for an installation token. The token is minted through a second
 * egress client, to the API host alone, whose only credential is the App's JWT.
 */
export function githubAppCredential(
  app: GithubAppConfig,
  baseUrl: string,
  host: ToolkitHost,
): CredentialPlacement & { credentialRef: string; exchange: CredentialExchange } {
  const hosts = [new URL(baseUrl).hostname];
  const bearer = { header: "authorization", scheme: "Bearer", credentialRef: app.privateKeyRef };
  const mintEgress = host.egress({ hosts, credential: { ...bearer, exchange: appJwtExchange(app) } });
  return { ...bearer, exchange: githubAppExchange({ app, baseUrl, mintEgress }) };
}

/** The exchange the API's credential runs: the private key in, an installation token out. */
export function githubAppExchange({
  app,
  baseUrl,
  mintEgress,
  now = Date.now,
}: GithubAppExchangeOptions): CredentialExchange {
  const minted = new Map<string, Promise<Minted>>();
  const url = `${baseUrl}/app/installations/${app.installationId}/access_tokens`;

  const start = (key: string, privateKey: string, scope: { tenantId: string; principalId: string }) => {
    const pending = mintToken(privateKey, scope);
    minted.set(key, pending);
    // A failed mint is not kept: the next call tries again.
    pending.catch(() => {
      if (minted.get(key) === pending) minted.delete(key);
    });
    return pending;
  };

  const mintToken = async (
    privateKey: string,
    scope: { tenantId: string; principalId: string },
  ): Promise<Minted> => {
    // No caller's signal: the mint is shared, and one caller giving up must not fail the others.
    const response = await mintEgress.request(url, {
      method: "POST",
      headers: { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" },
      // The key is already resolved; egress hands it to the JWT exchange of the mint client's credential.
      caller: { ...scope, credentials: { resolve: async () => privateKey } },
    });
    if (response.status !== 201) throw mintRefused(app, response.status, response.body);
    const answer = parseJson(response.body) as { token?: unknown; expires_at?: unknown } | undefined;
    const expiresAt = typeof answer?.expires_at === "string" ? Date.parse(answer.expires_at) : Number.NaN;
    if (typeof answer?.token !== "string" || answer.token.length === 0 || Number.isNaN(expiresAt)) {
      throw new ToolFailure(
        "upstream_error",
        `GitHub answered the installation token request for App ${app.appId} without a token and its expiry`,
        { retryable: true, details: { provider: "github", mintStatus: response.status } },
      );
    }
    return { token: answer.token, refreshAt: expiresAt - REFRESH_BEFORE_EXPIRY_MS };
  };

  return {
    async mint(secret, scope) {
      const privateKey = normalisePem(secret);
      // The key's fingerprint is in the key: a rotated key mints anew rather than reusing the old one's token.
      const key = `${scope.tenantId}\n${createHash("sha256").update(privateKey).digest("hex")}`;
      const cached = minted.get(key);
      if (cached) {
        const { token, refreshAt } = await cached;
        if (refreshAt > now()) return token;
        if (minted.get(key) === cached) minted.delete(key);
      }
      // A token minted just now is used even if it is short-lived; a stale one was dropped above.
      return (await (minted.get(key) ?? start(key, privateKey, scope))).token;
    },
    forget(scope) {
      for (const key of minted.keys()) if (key.startsWith(`${scope.tenantId}\n`)) minted.delete(key);
    },
  };
}

/** The exchange the mint request's credential runs: the private key in, a fresh JWT for the App out. */
export function appJwtExchange(app: GithubAppConfig, now: () => number = Date.now): CredentialExchange {
  return {
    async mint(secret) {
      return signAppJwt(privateKeyOf(secret, app), app.appId, Math.floor(now() / 1000));
    },
  };
}

/** A JWT GitHub accepts from the App: RS256, issued a minute back, expiring within ten minutes. */
export function signAppJwt(key: KeyObject, appId: number | string, nowSeconds: number): string {
  const header = encode({ alg: "RS256", typ: "JWT" });
  const payload = encode({ iat: nowSeconds - JWT_BACKDATE_S, exp: nowSeconds + JWT_AHEAD_S, iss: appId });
  const signature = sign("RSA-SHA256", Buffer.from(`${header}.${payload}`), key).toString("base64url");
  return `${header}.${payload}.${signature}`;
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The RSA private key, or a failure naming where it came from and never quoting it. */
function privateKeyOf(secret: string, app: GithubAppConfig): KeyObject {
  let key: KeyObject | undefined;
  try {
    key = createPrivateKey(normalisePem(secret));
  } catch {
    key = undefined;
  }
  if (key?.asymmetricKeyType !== "rsa") {
    throw new ToolFailure(
      "auth_required",
      `the GitHub App's private key, app.privateKeyRef "${app.privateKeyRef}", is not a PEM RSA private key: store the .pem file GitHub generated for App ${app.appId} under that reference (toolreg credentials connect ${app.privateKeyRef}, or env:NAME)`,
      { retryable: false, details: { provider: "github", credentialRef: app.privateKeyRef } },
    );
  }
  return key;
}

/** A PEM kept in one line of an environment file has its line breaks written as `\n`. */
function normalisePem(secret: string): string {
  return (secret.includes("\n") ? secret : secret.replaceAll("\\n", "\n")).trim();
}

/** GitHub's refusal of the JWT or the installation, said as what to check; a 5xx may pass by itself. */
function mintRefused(app: GithubAppConfig, status: number, body: Buffer): ToolFailure {
  const said = (parseJson(body) as { message?: unknown } | undefined)?.message;
  const because = typeof said === "string" ? ` (${said.slice(0, 200)})` : "";
  // `mintStatus`, not `status`: a 401 here is the key's, not the token's a call sent, and is not given up as one.
  const details = { provider: "github", credentialRef: app.privateKeyRef, mintStatus: status };
  if (status >= 500) {
    return new ToolFailure(
      "upstream_error",
      `GitHub could not mint an installation token for App ${app.appId} (${status})${because}; try again`,
      { retryable: true, details },
    );
  }
  const check =
    status === 404
      ? `app.installationId ${app.installationId}: GitHub knows no such installation of App ${app.appId} (uninstalled, or another App's)`
      : status === 401
        ? `app.appId ${app.appId} and that app.privateKeyRef "${app.privateKeyRef}" holds the App's current private key (and this host's clock)`
        : `the App's installation ${app.installationId} (suspended, or without access)`;
  return new ToolFailure(
    "auth_required",
    `GitHub refused to mint an installation token for App ${app.appId} (${status})${because}; an operator must check ${check}`,
    { retryable: false, details },
  );
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}
