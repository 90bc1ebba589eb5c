/** @module Turns what went wrong on the wire into a ToolFailure with the envelope code a caller can act on. */
import { ToolFailure } from "../errors/tool-failure.js";
import { scrubSecrets } from "./query-credential.js";

export interface FailureContext {
  /** The URL as a message may name it: without its query (redact-url.ts). */
  url: string;
  /** The client's own total timeout fired. */
  timedOut: boolean;
  /** The caller's signal fired. */
  aborted: boolean;
  timeoutMs: number;
  /** Secrets the request put in a query; a wire error's message that quotes one has it redacted. */
  secrets?: readonly string[];
}

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);
/** Failures a later attempt may not meet: the peer was down, busy or dropped us. */
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

export function translateFailure(error: unknown, context: FailureContext): ToolFailure {
  if (ToolFailure.isInstance(error)) return error;
  const { url } = context;
  // The caller's abort is checked first: a host that gave up is not a slow server.
  if (context.aborted) {
    return new ToolFailure("timeout", `the request to ${url} was aborted`, {
      retryable: false,
      details: { url, aborted: true },
      cause: error,
    });
  }
  const code = errorCode(error);
  if (context.timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
    const phase = code === "UND_ERR_CONNECT_TIMEOUT" ? "connecting" : "waiting for the response";
    return new ToolFailure("timeout", `${url} timed out while ${phase} (limit ${context.timeoutMs} ms)`, {
      retryable: true,
      details: { url, timeoutMs: context.timeoutMs, phase },
      cause: error,
    });
  }
  const reason = scrubSecrets(error instanceof Error ? error.message : String(error), context.secrets ?? []);
  return new ToolFailure("upstream_error", `the request to ${url} failed: ${reason.slice(0, 300)}`, {
    retryable: code !== undefined && TRANSIENT_CODES.has(code),
    details: code === undefined ? { url } : { url, cause: code },
    cause: error,
  });
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof cause === "string" ? cause : undefined;
}
