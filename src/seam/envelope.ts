/** @module The result envelope: the one shape every call outcome takes, with one closed list of codes. */
import { z } from "zod";

export const ERROR_CODES = [
  "unknown_tool",
  "not_authorized",
  "invalid_input",
  "precondition_failed",
  "rate_limited",
  "approval_required",
  "approval_denied",
  /** The user must connect a credential (the call is parked with an authorization URL), or an operator configure one; nothing ran. */
  "auth_required",
  "in_progress",
  "idempotency_conflict",
  "timeout",
  "egress_refused",
  "sandbox_violation",
  "upstream_error",
  "upstream_rate_limited",
  "output_invalid",
  "internal",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Where a piece of a result came from, re-readable by its chunk while the reader may still read the source. */
export const CitationSchema = z.object({
  sourceId: z.string(),
  chunkId: z.string(),
  title: z.string(),
  location: z.object({ page: z.number().int().positive().optional(), headings: z.array(z.string()) }),
  snippet: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const ProvenanceSchema = z.object({
  source: z.string(),
  trusted: z.boolean(),
  /** The knowledge a result quotes, kept with it as its evidence. */
  citations: z.array(CitationSchema).optional(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const ToolErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  retryable: z.boolean(),
  retryAfterMs: z.number().int().nonnegative().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ToolError = z.infer<typeof ToolErrorSchema>;

export const OkEnvelopeSchema = z.object({
  ok: z.literal(true),
  content: z.string(),
  data: z.unknown().optional(),
  truncated: z.boolean().optional(),
  provenance: ProvenanceSchema.optional(),
});
export const ErrorEnvelopeSchema = z.object({
  ok: z.literal(false),
  error: ToolErrorSchema,
});
export const EnvelopeSchema = z.discriminatedUnion("ok", [OkEnvelopeSchema, ErrorEnvelopeSchema]);

export type OkEnvelope = z.infer<typeof OkEnvelopeSchema>;
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
export type Envelope = OkEnvelope | ErrorEnvelope;

/** Codes a caller may retry as-is; everything else needs a change first. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(["rate_limited", "in_progress", "upstream_rate_limited"]);

/** Builds a failure envelope; `retryable` defaults from the code. */
export function failure(
  code: ErrorCode,
  message: string,
  extra: { retryable?: boolean; retryAfterMs?: number; details?: Record<string, unknown> } = {},
): ErrorEnvelope {
  const error: ToolError = { code, message, retryable: extra.retryable ?? RETRYABLE.has(code) };
  if (extra.retryAfterMs !== undefined) error.retryAfterMs = Math.max(0, Math.ceil(extra.retryAfterMs));
  if (extra.details !== undefined) error.details = extra.details;
  return { ok: false, error };
}

/** The approval id of a parked call, if this envelope is one. */
export function approvalIdOf(envelope: Envelope): string | undefined {
  if (envelope.ok || envelope.error.code !== "approval_required") return undefined;
  const id = envelope.error.details?.approvalId;
  return typeof id === "string" ? id : undefined;
}

/**
 * An envelope as the text a model reads in a tool-result message: the content, or the error's code and
 * message, which are written to be acted on (a retry hint, the nearest names, the approval id …).
 */
export function envelopeText(envelope: Envelope): string {
  if (envelope.ok) return envelope.content;
  const { code, message, retryAfterMs } = envelope.error;
  const retry = retryAfterMs === undefined ? "" : ` (retry after ${retryAfterMs} ms)`;
  return `error ${code}: ${message}${retry}`;
}
