/**
 * @module Step 9 for one result: whatever a tool returned or threw becomes an envelope. Nothing here may
 * throw, whatever the tool hands back: this code runs inside promise callbacks, where a throw would be an
 * unhandled rejection.
 */
import type { ToolOutput } from "../declaration/define-tool.js";
import { describeIssues } from "../declaration/tool-schema.js";
import { ToolFailure } from "../errors/tool-failure.js";
import type { AnyTool } from "../registry/registry.js";
import { withoutHalfPair } from "../text/surrogates.js";
import { type Envelope, failure, type OkEnvelope } from "./envelope.js";
import { encloseUntrusted, type FenceSource } from "./untrusted-fence.js";

/** A thrown value's message, without ever throwing (a value may have a hostile `toString`). */
export function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? String(error.message) : String(error);
  } catch {
    return "an unprintable value";
  }
}

export function fromThrown(toolName: string, error: unknown): Envelope {
  if (ToolFailure.isInstance(error)) {
    const extra: Parameters<typeof failure>[2] = {};
    if (error.retryable !== undefined) extra.retryable = error.retryable;
    if (error.retryAfterMs !== undefined) extra.retryAfterMs = error.retryAfterMs;
    if (error.details !== undefined) extra.details = error.details;
    return failure(error.envelopeCode, describeThrown(error), extra);
  }
  return failure("internal", `${toolName} failed: ${describeThrown(error).slice(0, 500)}`);
}

export function toEnvelope(tool: AnyTool, output: ToolOutput<unknown>): Envelope {
  try {
    return build(tool, output);
  } catch (error) {
    return failure(
      "output_invalid",
      `${tool.name} returned a result toolreg could not read: ${describeThrown(error)}`,
    );
  }
}

/** Outputs made by `passOn`: their content is an envelope's, already fenced if its source is untrusted. */
const passedOn = new WeakSet<object>();

/**
 * What a tool that called another through the seam (execute_tool) returns to hand that call's envelope
 * on. Its provenance goes with it, so an untrusted result stays marked untrusted wherever it is rendered,
 * and its content, fenced once already, is not fenced again.
 */
export function passOn(envelope: OkEnvelope): ToolOutput<unknown> {
  const output = {
    content: envelope.content,
    ...(envelope.data === undefined ? {} : { data: envelope.data }),
    ...(envelope.truncated ? { truncated: true } : {}),
    ...(envelope.provenance ? { provenance: envelope.provenance } : {}),
  };
  passedOn.add(output);
  return output;
}

function build(tool: AnyTool, output: ToolOutput<unknown>): Envelope {
  if (typeof output === "string") return capped(tool, { ok: true, content: output }, undefined, output);
  if (typeof output !== "object" || output === null) {
    return failure(
      "output_invalid",
      `${tool.name} returned ${output === null ? "null" : typeof output}, not a result`,
    );
  }
  const { content, data, truncated, provenance } = output;
  if (content !== undefined && typeof content !== "string") {
    return failure("output_invalid", `${tool.name} returned content that is not text`);
  }
  if (
    provenance !== undefined &&
    (typeof provenance?.source !== "string" || typeof provenance.trusted !== "boolean")
  ) {
    return failure(
      "output_invalid",
      `${tool.name} returned a provenance without a source and a trusted flag`,
    );
  }
  if (tool.output && data !== undefined) {
    const checked = tool.output.validate(data);
    if (checked instanceof Promise) {
      return failure(
        "output_invalid",
        `${tool.name} declares an asynchronous output schema, which is not supported`,
      );
    }
    if (!checked.ok) {
      return failure(
        "output_invalid",
        `${tool.name} returned data that breaks its output schema: ${describeIssues(checked.issues)}`,
      );
    }
  }
  // Data goes over the wire and into the idempotency store: it must be JSON, and what the caller gets
  // now must equal what a replay gets later, so it is passed through JSON once here.
  let dataJson: string | undefined;
  if (data !== undefined) {
    try {
      dataJson = JSON.stringify(data);
    } catch (error) {
      return failure(
        "output_invalid",
        `${tool.name} returned data that is not JSON: ${describeThrown(error)}`,
      );
    }
  }
  const text = content ?? dataJson ?? "";
  const handedOn = passedOn.has(output);
  const fence = provenance !== undefined && !provenance.trusted && !handedOn;
  const envelope: OkEnvelope = { ok: true, content: fence ? encloseUntrusted(text, provenance) : text };
  if (truncated) envelope.truncated = true;
  if (provenance) {
    const { source, trusted, citations } = provenance;
    envelope.provenance = { source, trusted, ...(citations ? { citations } : {}) };
  }
  if (handedOn) {
    // Capped already, by its own tool's limits, and maybe fenced: cut again, its fence could stay open.
    if (dataJson !== undefined) envelope.data = JSON.parse(dataJson);
    return envelope;
  }
  return capped(tool, envelope, dataJson, text, fence ? provenance : undefined);
}

/**
 * What a cap left out, kept beside the envelope (never in it) until the seam stores it: the content as a
 * whole and unfenced, whether it was cut, and the data's JSON when that was dropped.
 */
export interface Overflow {
  content: string;
  contentCut: boolean;
  data?: string;
}

const overflows = new WeakMap<OkEnvelope, Overflow>();

/** What the cap left out of this envelope, if anything. */
export function overflowOf(envelope: Envelope): Overflow | undefined {
  return envelope.ok ? overflows.get(envelope) : undefined;
}

/**
 * Applies the tool's byte cap to content and data together, and says so: silent truncation makes a model
 * trust half an answer. Data that does not fit is dropped whole; a half object is no object.
 */
function capped(
  tool: AnyTool,
  envelope: OkEnvelope,
  dataJson: string | undefined,
  text: string,
  fence?: FenceSource,
): OkEnvelope {
  const limit = tool.limits.outputBytes;
  // The data's size is what is left for the content, so it is counted exactly, not just checked.
  const dataBytes = dataJson === undefined ? 0 : Buffer.byteLength(dataJson);
  const dropped = dataJson !== undefined && dataBytes > limit ? dataJson : undefined;
  if (dataJson !== undefined && !dropped) envelope.data = JSON.parse(dataJson);
  const room = dataJson !== undefined && !dropped ? limit - dataBytes : limit;
  const contentCut = byteLength(envelope.content, room) > room;
  if (!contentCut && !dropped) return envelope;
  if (contentCut) {
    // A fenced text is cut inside its fence, so the fence still closes: an open one would swallow what follows.
    const render = (head: string) => (fence ? encloseUntrusted(head, fence) : head);
    const head = headWithin(text, room, render);
    envelope.content = head === undefined ? "" : render(head);
  }
  envelope.truncated = true;
  overflows.set(envelope, { content: text, contentCut, ...(dropped === undefined ? {} : { data: dropped }) });
  return envelope;
}

/** The longest prefix of `text` within `bytes` of UTF-8, never ending in half a character. */
export function cutToBytes(text: string, bytes: number): string {
  if (byteLength(text, bytes) <= bytes) return text;
  const head = Buffer.from(text).subarray(0, Math.max(0, bytes));
  return new TextDecoder("utf-8", { fatal: false }).decode(head).replace(/\uFFFD$/, "");
}

/**
 * About the longest head of `text` whose rendering fits `bytes` of UTF-8; undefined when not even an empty
 * one does (a fence is longer than the room). A fence may lengthen what it encloses (neutralised
 * markers), so the head is shortened until it fits, a few times at most, and never ends in half a
 * surrogate pair.
 */
export function headWithin(
  text: string,
  bytes: number,
  render: (head: string) => string,
): string | undefined {
  const frame = Buffer.byteLength(render(""));
  if (frame > bytes) return undefined;
  let head = cutToBytes(text, bytes - frame);
  while (head.length > 0 && byteLength(render(head), bytes) > bytes) {
    head = withoutHalfPair(head.slice(0, Math.floor(head.length * 0.9)));
  }
  return head;
}

/** UTF-8 length, skipping the count when the text is short enough to fit whatever its characters. */
function byteLength(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : Buffer.byteLength(text);
}
