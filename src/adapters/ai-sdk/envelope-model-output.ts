/** @module What the model reads for a tool result: the envelope's text, marked as an error when it is one. */
import { EnvelopeSchema, envelopeText, failure } from "../../seam/envelope.js";

/** The two AI SDK tool-result outputs an envelope becomes. */
export type EnvelopeModelOutput = { type: "text"; value: string } | { type: "error-text"; value: string };

/**
 * An envelope as the model's tool-result output, so the model can correct itself after an error. The
 * output may come back from a client-held history (`convertToModelMessages`): what is not an envelope
 * is not shown as a tool's answer.
 */
export function envelopeModelOutput(output: unknown): EnvelopeModelOutput {
  const parsed = EnvelopeSchema.safeParse(output);
  const envelope = parsed.success
    ? parsed.data
    : failure("internal", "this tool result is not a toolreg envelope, so it is not shown");
  return { type: envelope.ok ? "text" : "error-text", value: envelopeText(envelope) };
}
