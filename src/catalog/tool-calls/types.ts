/** @module A provider's tool call as read for the seam, and the call paired with its outcome. */
import type { Envelope, ErrorEnvelope } from "../../seam/envelope.js";

interface ToolCallIdentity {
  /**
   * The id the seam and the host's context see: the provider's when it is a valid identifier, otherwise
   * one generated from the call's position and content.
   */
  id: string;
  /** The id exactly as the provider sent it, quoted back in the result; absent when it sent none. */
  providerId?: string;
  /** The tool name as sent; empty when it was not a string. */
  name: string;
}

/** A call ready for the seam, or one refused while reading it, whose envelope is the answer instead. */
export type ParsedToolCall =
  | (ToolCallIdentity & { ok: true; input: Record<string, unknown> })
  | (ToolCallIdentity & { ok: false; envelope: ErrorEnvelope });

/** A call and its outcome: what a renderer turns into the provider's tool-result message. */
export interface ToolCallResult {
  call: ParsedToolCall;
  envelope: Envelope;
}
