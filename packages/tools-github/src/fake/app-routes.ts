/**
 * @module The fake's GitHub App: `POST /app/installations/{installation_id}/access_tokens` as GitHub's
 * REST reference has it ("Create an installation access token for an app"), the JWT checked as GitHub
 * checks it (RS256 signed with the App's key, `iss` the App, `exp` in the future but at most 10 minutes
 * ahead), GitHub's 401s worded as GitHub words them, a 404 for an installation the App does not have, and
 * an `authenticate` for the fake that accepts the tokens minted here until they expire or are revoked.
 */
import { type KeyObject, randomBytes, verify } from "node:crypto";
import type { FakeRoutes } from "./github-fake.js";
import { example } from "./payloads.js";

const DOCS = "https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app";
/** GitHub's limit on how far ahead a JWT's `exp` may be. */
const MAX_JWT_AHEAD_S = 10 * 60;

export interface FakeGithubAppOptions {
  /** The App's ID, which a JWT's `iss` must name. */
  appId: number;
  /** The half of the App's key GitHub keeps. */
  publicKey: KeyObject;
  installationIds: readonly number[];
  /** The App's slug: its installation tokens act as `<slug>[bot]`. */
  slug?: string;
}

export interface FakeGithubApp {
  routes: FakeRoutes;
  /** For the fake's `authenticate`: a token minted here and still live, or a JWT for the mint route to check. */
  authenticate(token: string): Promise<{ login: string } | undefined>;
  /** The installation tokens minted, in order. */
  minted: string[];
  /** How long a minted token lives: an hour, as GitHub's do, unless a test shortens it. */
  tokenLifetimeMs: number;
  /** Revokes a token, as `DELETE /installation/token` or an uninstall would: GitHub answers it 401 since. */
  revoke(token: string): void;
  /** Who a live token acts as. */
  login: string;
}

/** What a JWT's three parts are, before anything is trusted. */
const JWT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

export function fakeGithubApp({
  appId,
  publicKey,
  installationIds,
  slug = "toolreg-test",
}: FakeGithubAppOptions): FakeGithubApp {
  const expiries = new Map<string, number>();
  const login = `${slug}[bot]`;
  const app: FakeGithubApp = {
    minted: [],
    tokenLifetimeMs: 60 * 60_000,
    login,
    revoke: (token) => void expiries.delete(token),
    async authenticate(token) {
      const expiresAt = expiries.get(token);
      if (expiresAt !== undefined) return expiresAt > Date.now() ? { login } : undefined;
      // A JWT is for the App's own endpoints, which check it themselves.
      return JWT.test(token) ? { login: `app ${appId}` } : undefined;
    },
    routes(hono, fake) {
      hono.post("/app/installations/:installation_id/access_tokens", (c) => {
        const jwt = /^Bearer (\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
        const refusal = jwt === undefined ? "A JSON web token could not be decoded" : jwtRefusal(jwt);
        if (refusal) {
          return fake.json(c, 401, { message: refusal, documentation_url: "https://docs.github.com/rest" });
        }
        if (!installationIds.includes(Number(c.req.param("installation_id")))) {
          return fake.json(c, 404, { message: "Not Found", documentation_url: DOCS, status: "404" });
        }
        const token = `ghs_${randomBytes(18).toString("hex")}`;
        const expiresAt = Date.now() + app.tokenLifetimeMs;
        expiries.set(token, expiresAt);
        app.minted.push(token);
        return fake.json(
          c,
          201,
          example("installation-token", {
            token,
            expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
          }),
        );
      });
    },
  };

  /** GitHub's 401 message for a JWT it will not take, or undefined for one it will. */
  function jwtRefusal(jwt: string): string | undefined {
    const [, header, payload, signature] = JWT.exec(jwt) ?? [];
    if (!header || !payload || !signature) return "A JSON web token could not be decoded";
    const claims = parsePart(payload);
    if (parsePart(header)?.alg !== "RS256" || !claims) return "A JSON web token could not be decoded";
    // GitHub finds the App by `iss`, then checks the signature with that App's key.
    if (String(claims.iss) !== String(appId)) return "Integration not found";
    const signed = Buffer.from(`${header}.${payload}`);
    if (!verify("RSA-SHA256", signed, publicKey, Buffer.from(signature, "base64url"))) {
      return "A JSON web token could not be decoded";
    }
    const now = Math.floor(Date.now() / 1000);
    if (!Number.isInteger(claims.iat) || (claims.iat as number) > now + 60) {
      return "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";
    }
    if (!Number.isInteger(claims.exp) || (claims.exp as number) <= now) {
      return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
    }
    if ((claims.exp as number) > now + MAX_JWT_AHEAD_S) {
      return "'Expiration time' claim ('exp') is too far in the future";
    }
    return undefined;
  }

  return app;
}

function parsePart(part: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
