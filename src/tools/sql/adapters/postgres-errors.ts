/** @module Maps PostgreSQL and driver errors to envelope codes: the statement's fault, a timeout, or upstream. */
import { ToolFailure } from "../../../errors/tool-failure.js";

/**
 * SQLSTATE classes that mean the statement itself is wrong: unsupported feature, cardinality, data,
 * integrity, invalid transaction state (a write in a read-only transaction), cursor, syntax or access rule,
 * check option, PL/pgSQL raise.
 */
const STATEMENT_CLASSES = new Set(["0A", "21", "22", "23", "25", "2B", "34", "42", "44", "P0"]);

interface DriverError {
  code?: unknown;
  message?: unknown;
  position?: unknown;
}

/** `phase` matters for codes that mean "bad statement" while running but "bad deployment" while connecting. */
export function postgresFailure(
  error: unknown,
  call: { phase: "connect" | "statement"; timeoutMs: number; aborted: boolean },
): ToolFailure {
  if (ToolFailure.isInstance(error)) return error;
  const { code, message, position } = (
    typeof error === "object" && error !== null ? error : {}
  ) as DriverError;
  const text = typeof message === "string" ? message : String(error);
  const sqlState = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  const details: Record<string, unknown> = { dialect: "postgres" };
  if (sqlState) details.sqlState = sqlState;
  if (typeof position === "string") details.position = Number(position);
  if (call.aborted) {
    return new ToolFailure("timeout", "PostgreSQL: the call was aborted and its statement cancelled", {
      details: { ...details, aborted: true },
    });
  }
  // 57014 is a cancelled statement (statement_timeout); the driver's own read timeout is the backstop.
  if (sqlState === "57014" || text === "Query read timeout") {
    return new ToolFailure(
      "timeout",
      `PostgreSQL: the statement did not finish within ${call.timeoutMs} ms`,
      {
        details: { ...details, timeoutMs: call.timeoutMs },
      },
    );
  }
  if (call.phase === "statement" && sqlState && STATEMENT_CLASSES.has(sqlState.slice(0, 2))) {
    return new ToolFailure("invalid_input", `PostgreSQL: ${text}`, { details });
  }
  // Connection failures (class 08, a refused socket, a restarting server) and serialization failures (40)
  // may succeed on a retry; a wrong password or database name will not.
  const permanent = sqlState?.startsWith("28") || sqlState === "3D000";
  return new ToolFailure("upstream_error", `PostgreSQL: ${text}`, { details, retryable: !permanent });
}
