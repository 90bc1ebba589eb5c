/** @module Steps 8–9 for one call: run the tool under its deadline and signal, then build the envelope. */
import type { ToolOutput } from "../declaration/define-tool.js";
import { describeIssues } from "../declaration/tool-schema.js";
import { ToolFailure } from "../errors/tool-failure.js";
import type { AnyTool } from "../registry/registry.js";
import type { ExecutionContext, ToolContext } from "./context.js";
import { type Envelope, failure, type OkEnvelope } from "./envelope.js";
import { encloseUntrusted } from "./untrusted-fence.js";

const TIMED_OUT = Symbol("timed out");
const ABORTED = Symbol("aborted");

export interface PerformRequest {
  tool: AnyTool;
  context: ExecutionContext;
  input: unknown;
  idempotencyKey: string | undefined;
  approvalId: string | undefined;
  now: number;
}

/** Runs the tool; every outcome, a throw, a timeout or an abort included, is an envelope. */
export async function perform(request: PerformRequest): Promise<Envelope> {
  const { tool, context } = request;
  const deadline = Math.min(
    request.now + tool.limits.timeoutMs,
    context.deadline ?? Number.POSITIVE_INFINITY,
  );
  const timeoutMs = deadline - request.now;
  if (timeoutMs <= 0) return failure("timeout", `the deadline passed before ${tool.name} could start`);
  if (context.signal?.aborted) return aborted(tool.name);

  const controller = new AbortController();
  const toolContext: ToolContext = {
    ...context,
    signal: controller.signal,
    deadline,
    idempotencyKey: request.idempotencyKey,
    approvalId: request.approvalId,
  };
  let result: ToolOutput<unknown> | Promise<ToolOutput<unknown>>;
  try {
    result = tool.run(request.input, toolContext);
  } catch (error) {
    return fromThrown(tool.name, error);
  }
  // A synchronous tool has already finished: no timer, no race.
  if (!(result instanceof Promise)) return toEnvelope(tool, result);

  let timer: NodeJS.Timeout | undefined;
  let onHostAbort: (() => void) | undefined;
  const stop = new Promise<typeof TIMED_OUT | typeof ABORTED>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
    if (context.signal) {
      onHostAbort = () => resolve(ABORTED);
      context.signal.addEventListener("abort", onHostAbort, { once: true });
    }
  });
  try {
    const settled = await Promise.race([result, stop]);
    if (settled === TIMED_OUT) {
      controller.abort(new Error("timeout"));
      return failure("timeout", `${tool.name} did not finish within ${timeoutMs} ms`, {
        retryable: tool.effect === "read",
      });
    }
    if (settled === ABORTED) {
      controller.abort(context.signal?.reason);
      return aborted(tool.name);
    }
    return toEnvelope(tool, settled);
  } catch (error) {
    return fromThrown(tool.name, error);
  } finally {
    clearTimeout(timer);
    if (onHostAbort) context.signal?.removeEventListener("abort", onHostAbort);
  }
}

function aborted(toolName: string): Envelope {
  return failure("timeout", `the host aborted ${toolName}`, { details: { aborted: true } });
}

function fromThrown(toolName: string, error: unknown): Envelope {
  if (ToolFailure.isInstance(error)) {
    const extra: Parameters<typeof failure>[2] = {};
    if (error.retryable !== undefined) extra.retryable = error.retryable;
    if (error.retryAfterMs !== undefined) extra.retryAfterMs = error.retryAfterMs;
    if (error.details !== undefined) extra.details = error.details;
    return failure(error.envelopeCode, error.message, extra);
  }
  const message = error instanceof Error ? error.message : String(error);
  return failure("internal", `${toolName} failed: ${message.slice(0, 500)}`);
}

function toEnvelope(tool: AnyTool, output: ToolOutput<unknown>): Envelope {
  if (typeof output === "string") return capped(tool, { ok: true, content: output });
  if (typeof output !== "object" || output === null) {
    return failure(
      "output_invalid",
      `${tool.name} returned ${output === null ? "null" : typeof output}, not a result`,
    );
  }
  if (tool.output && output.data !== undefined) {
    const checked = tool.output.validate(output.data);
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
  let content = output.content;
  if (content === undefined) {
    try {
      content = output.data === undefined ? "" : JSON.stringify(output.data);
    } catch (error) {
      return failure(
        "output_invalid",
        `${tool.name} returned data that is not JSON: ${(error as Error).message}`,
      );
    }
  }
  if (output.provenance && !output.provenance.trusted)
    content = encloseUntrusted(content, output.provenance.source);
  const envelope: OkEnvelope = { ok: true, content };
  if (output.data !== undefined) envelope.data = output.data;
  if (output.truncated) envelope.truncated = true;
  if (output.provenance) envelope.provenance = output.provenance;
  return capped(tool, envelope);
}

/** Cuts content past the tool's byte cap and says so: silent truncation makes a model trust half an answer. */
function capped(tool: AnyTool, envelope: OkEnvelope): OkEnvelope {
  const limit = tool.limits.outputBytes;
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short content skips the byte count.
  if (envelope.content.length * 3 <= limit || Buffer.byteLength(envelope.content) <= limit) return envelope;
  const bytes = Buffer.from(envelope.content).subarray(0, limit);
  // Drop a trailing partial character rather than emit U+FFFD.
  const content = new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/\uFFFD$/, "");
  return { ...envelope, content, truncated: true };
}
