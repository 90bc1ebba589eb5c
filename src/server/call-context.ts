/**
 * @module The execution context of an HTTP call: who from the API key (or session), which run and tool
 * call from optional headers, and an `Idempotency-Key` header honoured as the call's key. Nothing in the
 * body can set any of it.
 */
import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { Caller } from "../ports/auth-store.js";
import {
  type CredentialResolver,
  createExecutionContext,
  type ExecutionContext,
  IDENTIFIER,
  type Logger,
} from "../seam/context.js";
import { problem } from "./problem.js";

export const RUN_HEADER = "x-toolreg-run-id";
export const TOOL_CALL_HEADER = "x-toolreg-tool-call-id";
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export function callContext(
  c: Context,
  caller: Caller,
  logger: Logger,
  credentials?: CredentialResolver,
): { ok: true; context: ExecutionContext } | { ok: false; response: Response } {
  const runId = c.req.header(RUN_HEADER) ?? `http-${randomUUID()}`;
  const toolCallId = c.req.header(TOOL_CALL_HEADER) ?? randomUUID();
  for (const [header, value] of [
    [RUN_HEADER, runId],
    [TOOL_CALL_HEADER, toolCallId],
  ] as const) {
    if (!IDENTIFIER.test(value)) {
      return {
        ok: false,
        response: problem(
          400,
          "invalid_header",
          `${header} must be an identifier (letters, digits, . _ : @ / -)`,
        ),
      };
    }
  }
  const idempotencyKey = c.req.header("idempotency-key");
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    return {
      ok: false,
      response: problem(400, "invalid_header", "Idempotency-Key must be 1–200 visible ASCII characters"),
    };
  }
  return {
    ok: true,
    context: createExecutionContext({
      tenantId: caller.tenantId,
      principalId: caller.principalId,
      runId,
      toolCallId,
      scopes: caller.scopes,
      mode: caller.mode,
      keyId: caller.keyId,
      logger,
      signal: c.req.raw.signal,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      ...(credentials ? { credentials } : {}),
    }),
  };
}

/** A context for listing what a caller may see: visibility depends on tenant, principal, scopes and mode only. */
export function viewContext(caller: Caller, logger: Logger): ExecutionContext {
  return createExecutionContext({
    tenantId: caller.tenantId,
    principalId: caller.principalId,
    runId: "discovery",
    toolCallId: "discovery",
    scopes: caller.scopes,
    mode: caller.mode,
    logger,
  });
}

/** Names what a caller may see; callers with equal keys see equal tools. */
export function viewKey(caller: Caller): string {
  return JSON.stringify([caller.tenantId, caller.principalId, [...caller.scopes].sort(), caller.mode]);
}
