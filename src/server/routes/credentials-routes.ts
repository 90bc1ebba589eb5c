/**
 * @module Stored credentials over HTTP, metadata only: never a secret, in a listing or anywhere else. A
 * tenant's operators see and revoke every credential of the tenant; anyone else sees the tenant's own and
 * theirs, and revokes only theirs. A person connects one by pasting a token (their own; the tenant's when
 * an operator) or by starting an OAuth consent for themselves, answered with toolreg's start link.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { Caller } from "../../ports/auth-store.js";
import { type CredentialMetadata, pastedSecretProblem } from "../../ports/credential-store.js";
import { credentialsUsedBy, credentialUsedFor } from "../../seam/consent/credential-need.js";
import { viewContext } from "../call-context.js";
import { type Problem, problem } from "../problem.js";
import { readJsonBody } from "../read-json-body.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export const RevokeCredentialBody = z.strictObject({
  ref: z.string().min(1).max(200),
  /** Whose: a principal's own (the caller's when omitted), or `null` for the tenant's. */
  principalId: z.string().min(1).max(200).nullable().optional(),
});

const Ref = z.string().min(1).max(200);
const Scopes = z.array(z.string().min(1).max(200)).max(100);

export const StoreCredentialBody = z.strictObject({
  ref: Ref,
  /** The toolkit it is for; the one served toolkit that uses `ref` when omitted. */
  provider: z.string().min(1).max(100).optional(),
  // Messages of our own: a secret is never quoted back, not even in part.
  token: z
    .string({ error: "token must be a string" })
    .min(1, { error: "token is empty" })
    .max(16_384, { error: "token is longer than 16384 characters" })
    .refine((token) => pastedSecretProblem(token.trim()) === undefined, {
      error: (issue) => `token: ${pastedSecretProblem(String(issue.input).trim())}`,
    }),
  account: z.string().min(1).max(200).optional(),
  scopes: Scopes.optional(),
  /** Whose: the caller's own when omitted, or `null` for the tenant's (an operator's to store). */
  principalId: z.string().min(1).max(200).nullable().optional(),
});

export const ConnectCredentialBody = z.strictObject({
  ref: Ref,
  provider: z.string().min(1).max(100).optional(),
  /** What to ask for; every scope the ref's tools need when omitted. */
  scopes: Scopes.optional(),
});

const canSee = (caller: Caller, credential: CredentialMetadata) =>
  caller.operator || credential.principalId === undefined || credential.principalId === caller.principalId;

export function credentialsRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const unconfigured = () =>
    problem(
      404,
      "credentials_not_configured",
      "this server keeps no credentials: start it with --credentials-key-file (or TOOLREG_CREDENTIALS_KEY)",
    );

  /** The tools this caller sees: only their credentials can be connected. */
  const visibleTools = (caller: Caller) => deps.seam.visibleTools(viewContext(caller, deps.logger));

  app.get("/api/v1/credentials", async (c) => {
    const store = deps.credentialStore;
    if (!store) return unconfigured();
    const caller = c.get("caller");
    const credentials = await store.list({ tenantId: caller.tenantId });
    // What a person can connect: each ref with its provider, and whether that provider can ask for consent.
    const connectable = credentialsUsedBy(visibleTools(caller)).map((need) => ({
      ref: need.credentialRef,
      provider: need.provider,
      oauth: need.oauth !== undefined,
    }));
    return c.json({
      credentials: credentials.filter((credential) => canSee(caller, credential)),
      connectable,
    });
  });

  app.post("/api/v1/credentials", async (c) => {
    const store = deps.credentialStore;
    if (!store) return unconfigured();
    const body = await readSecretBody(c, deps.bodyTimeoutMs);
    if (!body.ok) return body.response;
    const parsed = StoreCredentialBody.safeParse(body.value);
    if (!parsed.success) return problem(422, "invalid_body", z.prettifyError(parsed.error));
    const caller = c.get("caller");
    const whose = whoseCredential(caller, parsed.data.principalId, "stores");
    if (!whose.ok) return whose.response;
    const { principalId } = whose;
    const used = credentialUsedFor(visibleTools(caller), parsed.data.ref, parsed.data.provider);
    if (!used.ok) return problem(422, "unknown_credential", used.message);
    const stored = await store.put({
      tenantId: caller.tenantId,
      principalId: principalId ?? undefined,
      ref: parsed.data.ref,
      kind: "token",
      provider: used.need.provider,
      scopes: parsed.data.scopes ?? [],
      account: parsed.data.account,
      secrets: { accessToken: parsed.data.token.trim() },
      connectedBy: caller.principalId,
      at: Date.now(),
    });
    return c.json(stored, 201);
  });

  app.post("/api/v1/credentials/connect", async (c) => {
    if (!deps.credentialStore) return unconfigured();
    const body = await readJsonBody(c, { timeoutMs: deps.bodyTimeoutMs });
    if (!body.ok) return body.response;
    const parsed = ConnectCredentialBody.safeParse(body.value);
    if (!parsed.success) return problem(422, "invalid_body", z.prettifyError(parsed.error));
    const caller = c.get("caller");
    const used = credentialUsedFor(visibleTools(caller), parsed.data.ref, parsed.data.provider);
    if (!used.ok) return problem(422, "unknown_credential", used.message);
    const started = await deps.seam.connectCredential(
      { tenantId: caller.tenantId, principalId: caller.principalId },
      used.need,
      parsed.data.scopes ?? used.need.scopes,
    );
    if (!started.ok)
      return problem(started.reason === "consent_unavailable" ? 422 : 404, started.reason, started.message);
    return c.json({ consentUrl: started.consentUrl, expiresAt: new Date(started.expiresAt).toISOString() });
  });

  app.post("/api/v1/credentials/revoke", async (c) => {
    const store = deps.credentialStore;
    if (!store) return unconfigured();
    const body = await readJsonBody(c, { timeoutMs: deps.bodyTimeoutMs });
    if (!body.ok) return body.response;
    const parsed = RevokeCredentialBody.safeParse(body.value);
    if (!parsed.success) return problem(422, "invalid_body", z.prettifyError(parsed.error));
    const caller = c.get("caller");
    const whose = whoseCredential(caller, parsed.data.principalId, "revokes");
    if (!whose.ok) return whose.response;
    const { principalId } = whose;
    const key = { tenantId: caller.tenantId, principalId: principalId ?? undefined, ref: parsed.data.ref };
    const revoked = await store.revoke({
      ...key,
      at: Date.now(),
      reason: `revoked by ${caller.principalId}`,
    });
    if (!revoked) {
      return problem(
        404,
        "credential_not_found",
        `there is no live credential "${parsed.data.ref.slice(0, 100)}" there`,
      );
    }
    const [credential] = await store.list({ tenantId: caller.tenantId, principalId, ref: parsed.data.ref });
    return c.json(credential);
  });
}

/**
 * The body of a request that carries a secret: a parse error keeps its code but not its text, since V8's
 * message quotes the body it could not read.
 */
async function readSecretBody(c: Context<ServerEnv>, timeoutMs: number) {
  const body = await readJsonBody(c, { timeoutMs });
  if (body.ok || body.response.status !== 400) return body;
  const { code } = (await body.response.json()) as Problem;
  const detail = "the body is not a JSON object; its text is not repeated here, since it holds a secret";
  return { ok: false as const, response: problem(400, code, detail) };
}

/**
 * Whose credential a request means: the caller's own when it names none, `null` for the tenant's. Only an
 * operator acts on the tenant's or another principal's.
 */
function whoseCredential(
  caller: Caller,
  requested: string | null | undefined,
  verb: "stores" | "revokes",
): { ok: true; principalId: string | null } | { ok: false; response: Response } {
  const principalId = requested === undefined ? caller.principalId : requested;
  if (principalId === caller.principalId || caller.operator) return { ok: true, principalId };
  return {
    ok: false,
    response: problem(
      403,
      "not_authorized",
      `only an operator ${verb} the tenant's credentials or another principal's`,
    ),
  };
}
