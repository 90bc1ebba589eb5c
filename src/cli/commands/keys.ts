/**
 * @module `toolreg keys create|list|revoke|login`: API keys of the registry server, kept hashed in its store.
 * OAuth grants are keys too (labelled `oauth: <client>`, expiring): listed and revoked the same way.
 */

import type { AuthStore } from "../../ports/auth-store.js";
import { ASSISTANT_MODES, type AssistantMode } from "../../seam/context.js";
import { type CliIo, UsageError } from "../cli-io.js";
import { formatJson, formatTable } from "../format.js";

export interface CreateKeyOptions {
  tenant: string;
  principal: string;
  scopes?: string;
  keyMode?: string;
  operator?: boolean;
  label?: string;
}

export async function createKeyCommand(
  auth: AuthStore,
  options: CreateKeyOptions,
  io: CliIo,
): Promise<number> {
  const mode = (options.keyMode ?? "active") as AssistantMode;
  if (!ASSISTANT_MODES.includes(mode))
    throw new UsageError(`--key-mode must be one of ${ASSISTANT_MODES.join(", ")}`);
  const scopes = (options.scopes ?? "")
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);
  let created: Awaited<ReturnType<AuthStore["createKey"]>>;
  try {
    created = await auth.createKey({
      tenantId: options.tenant,
      principalId: options.principal,
      scopes,
      mode,
      operator: options.operator ?? false,
      ...(options.label === undefined ? {} : { label: options.label }),
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  io.stdout(`${created.key}\n`);
  io.stderr(
    `key ${created.record.id} for ${options.tenant}/${options.principal}; shown once, stored hashed\n`,
  );
  return 0;
}

export async function listKeysCommand(
  auth: AuthStore,
  options: { tenant?: string; json?: boolean },
  io: CliIo,
): Promise<number> {
  const keys = await auth.listKeys(options.tenant ? { tenantId: options.tenant } : {});
  if (options.json) {
    io.stdout(formatJson(keys));
    return 0;
  }
  io.stdout(
    formatTable(
      ["ID", "TENANT", "PRINCIPAL", "SCOPES", "MODE", "OPERATOR", "EXPIRES", "REVOKED", "LABEL"],
      keys.map((key) => [
        key.id,
        key.tenantId,
        key.principalId,
        key.scopes.join(",") || "-",
        key.mode,
        key.operator ? "yes" : "no",
        // An OAuth grant's key: its access token's end (a refresh renews it).
        key.expiresAt ? new Date(key.expiresAt).toISOString() : "-",
        key.revokedAt ? new Date(key.revokedAt).toISOString() : "-",
        key.label ?? "-",
      ]),
    ),
  );
  return 0;
}

export async function revokeKeyCommand(auth: AuthStore, id: string, io: CliIo): Promise<number> {
  if (!(await auth.revokeKey(id))) {
    io.stderr(`error: no live key ${id}\n`);
    return 1;
  }
  io.stdout(`revoked ${id}\n`);
  return 0;
}

/**
 * A fresh one-time console link: for the newest live key of `principal` when given (a user signing in as
 * themselves, e.g. to consent to an OAuth grant or a connection), else for the tenant's newest operator key.
 * An expiring key (an OAuth grant) is never one to sign in with.
 */
export async function loginCommand(
  auth: AuthStore,
  tenant: string,
  origin: string,
  io: CliIo,
  principal?: string,
): Promise<number> {
  const key = (await auth.listKeys({ tenantId: tenant }))
    .filter(
      (candidate) =>
        (principal === undefined ? candidate.operator : candidate.principalId === principal) &&
        candidate.revokedAt === undefined &&
        candidate.expiresAt === undefined,
    )
    .sort((a, b) => b.createdAt - a.createdAt)[0];
  if (!key) {
    io.stderr(
      principal === undefined
        ? `error: tenant ${tenant} has no live operator key; create one with keys create --operator\n`
        : `error: ${principal} has no live key in tenant ${tenant}; create one with keys create --principal ${principal}\n`,
    );
    return 1;
  }
  io.stdout(`${origin.replace(/\/$/, "")}/login?token=${await auth.createLoginToken(key.id)}\n`);
  return 0;
}
