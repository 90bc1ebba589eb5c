/**
 * @module Stored credentials over HTTP, metadata only: never a secret, in a listing or anywhere else. A
 * tenant's operators see and revoke every credential of the tenant; anyone else sees the tenant's own and
 * theirs, and revokes only theirs. Connecting is the consent flow's (or the CLI's, for a typed token).
 */
import type { Hono } from "hono";
import { z } from "zod";
import type { CredentialMetadata } from "../../ports/credential-store.js";
import type { Caller } from "../auth/index.js";
import { problem } from "../problem.js";
import { readJsonBody } from "../read-json-body.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export const RevokeCredentialBody = z.strictObject({
  ref: z.string().min(1).max(200),
  /** Whose: a principal's own (the caller's when omitted), or `null` for the tenant's. */
  principalId: z.string().min(1).max(200).nullable().optional(),
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

  app.get("/api/v1/credentials", async (c) => {
    const store = deps.credentialStore;
    if (!store) return unconfigured();
    const caller = c.get("caller");
    const credentials = await store.list({ tenantId: caller.tenantId });
    return c.json({ credentials: credentials.filter((credential) => canSee(caller, credential)) });
  });

  app.post("/api/v1/credentials/revoke", async (c) => {
    const store = deps.credentialStore;
    if (!store) return unconfigured();
    const body = await readJsonBody(c, { timeoutMs: deps.bodyTimeoutMs });
    if (!body.ok) return body.response;
    const parsed = RevokeCredentialBody.safeParse(body.value);
    if (!parsed.success) return problem(422, "invalid_body", z.prettifyError(parsed.error));
    const caller = c.get("caller");
    const principalId = parsed.data.principalId === undefined ? caller.principalId : parsed.data.principalId;
    if (principalId !== caller.principalId && !caller.operator) {
      return problem(
        403,
        "not_authorized",
        "only an operator revokes the tenant's credentials or another principal's",
      );
    }
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
