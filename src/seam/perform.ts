/** @module Steps 8–9 for one call: run the tool under its deadline and signal, then build the envelope. */
import type { ToolOutput } from "../declaration/define-tool.js";
import { describeIssues } from "../declaration/tool-schema.js";
import { ToolFailure } from "../errors/tool-failure.js";
import type { AnyTool } from "../registry/registry.js";
import { CallContext } from "./call-context.js";
import type { ExecutionContext } from "./context.js";
import { DeadlineWatchdog, Watched } from "./deadline-watchdog.js";
import { type Envelope, failure, type OkEnvelope } from "./envelope.js";
import { encloseUntrusted } from "./untrusted-fence.js";

const watchdog = new DeadlineWatchdog();

export interface PerformRequest {
  tool: AnyTool;
  context: ExecutionContext;
  input: unknown;
  idempotencyKey: string | undefined;
  approvalId: string | undefined;
  now: number;
}

/** Runs the tool; every outcome, a throw, a timeout or an abort included, is an envelope. */
export function perform(request: PerformRequest): Envelope | Promise<Envelope> {
  const { tool, context } = request;
  const deadline = Math.min(
    request.now + tool.limits.timeoutMs,
    context.deadline ?? Number.POSITIVE_INFINITY,
  );
  const timeoutMs = deadline - request.now;
  if (timeoutMs <= 0) return failure("timeout", `the deadline passed before ${tool.name} could start`);
  if (context.signal?.aborted) return aborted(tool.name);

  const toolContext = new CallContext(context, deadline, request.idempotencyKey, request.approvalId);
  let result: ToolOutput<unknown> | PromiseLike<ToolOutput<unknown>>;
  try {
    result = tool.run(request.input, toolContext);
  } catch (error) {
    return fromThrown(tool.name, error);
  }
  // A synchronous tool has already finished: nothing to time.
  if (!isPromiseLike(result)) return toEnvelope(tool, result);
  return new PendingCall(tool, context, toolContext, timeoutMs, result).promise;
}

/** An asynchronous tool call under the watchdog: settles once, on the tool's result, the deadline or an abort. */
class PendingCall extends Watched {
  readonly deadline: number;
  readonly promise: Promise<Envelope>;
  readonly #tool: AnyTool;
  readonly #context: ExecutionContext;
  readonly #toolContext: CallContext;
  readonly #timeoutMs: number;
  #resolve: (envelope: Envelope) => void = () => {};
  #settled = false;
  #onHostAbort: (() => void) | undefined;

  constructor(
    tool: AnyTool,
    context: ExecutionContext,
    toolContext: CallContext,
    timeoutMs: number,
    pending: PromiseLike<ToolOutput<unknown>>,
  ) {
    super();
    this.#tool = tool;
    this.#context = context;
    this.#toolContext = toolContext;
    this.#timeoutMs = timeoutMs;
    // The watchdog runs on real time, whatever clock the seam was given.
    this.deadline = Date.now() + timeoutMs;
    this.promise = new Promise<Envelope>((resolve) => {
      this.#resolve = resolve;
    });
    if (context.signal) {
      this.#onHostAbort = () =>
        this.#finish(aborted(tool.name), context.signal?.reason ?? new Error("aborted"));
      context.signal.addEventListener("abort", this.#onHostAbort, { once: true });
    }
    watchdog.watch(this);
    pending.then(
      (output) => this.#finish(toEnvelope(tool, output)),
      (error: unknown) => this.#finish(fromThrown(tool.name, error)),
    );
  }

  expire(): void {
    const envelope = failure("timeout", `${this.#tool.name} did not finish within ${this.#timeoutMs} ms`, {
      retryable: this.#tool.effect === "read",
    });
    this.#finish(envelope, new Error("timeout"));
  }

  #finish(envelope: Envelope, abortReason?: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    watchdog.unwatch(this);
    if (this.#onHostAbort) this.#context.signal?.removeEventListener("abort", this.#onHostAbort);
    // Tell the tool to stop: it may still be running after a timeout or an abort.
    if (abortReason !== undefined) this.#toolContext.abort(abortReason);
    this.#resolve(envelope);
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
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
