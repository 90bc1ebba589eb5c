/** @module Steps 8–9 for one call: run the tool under its deadline and signal, then build the envelope. */
import type { ToolOutput } from "../declaration/define-tool.js";
import { changesData } from "../declaration/effect.js";
import type { AnyTool } from "../registry/registry.js";
import { CallContext } from "./call-context.js";
import type { ExecutionContext } from "./context.js";
import { DeadlineWatchdog, Watched } from "./deadline-watchdog.js";
import { type Envelope, failure } from "./envelope.js";
import { fromThrown, toEnvelope } from "./to-envelope.js";

const watchdog = new DeadlineWatchdog();

/**
 * Calls started this turn that have no abort listener yet. A call that settles first empties its slot:
 * a turn made only of promise jobs (an in-memory transport, a host's loop of awaits) can run thousands
 * of calls, and the batch must not keep every finished one, its input and its result alive until the
 * next turn.
 */
let unlistened: (PendingCall | undefined)[] = [];

function listenForHostAborts(): void {
  const calls = unlistened;
  unlistened = [];
  for (const call of calls) call?.listen();
}

export interface PerformRequest {
  tool: AnyTool;
  context: ExecutionContext;
  input: unknown;
  idempotencyKey: string | undefined;
  approvalId: string | undefined;
  now: number;
  /** `now` is real time, so the deadline is too and the watchdog can take it as it is. */
  realClock: boolean;
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
  // A call that changes data is not cut off by its caller (a client hanging up, a host's abort): cut off,
  // its effect might happen while its outcome said otherwise. It runs to its own deadline, and its real
  // outcome is what gets answered and stored. A read stops when its caller goes.
  const hostSignal = changesData(tool.effect) ? undefined : context.signal;
  if (hostSignal?.aborted) return aborted(tool.name);

  const toolContext = new CallContext(context, deadline, request.idempotencyKey, request.approvalId);
  let result: ToolOutput<unknown> | PromiseLike<ToolOutput<unknown>>;
  try {
    result = tool.run(request.input, toolContext);
  } catch (error) {
    return fromThrown(tool.name, error);
  }
  // A synchronous tool has already finished: nothing to time.
  if (!isPromiseLike(result)) return toEnvelope(tool, result);
  // The watchdog runs on real time, whatever clock the seam was given.
  const watchUntil = request.realClock ? deadline : Date.now() + timeoutMs;
  return new PendingCall(tool, hostSignal, toolContext, timeoutMs, watchUntil, result).promise;
}

// One executor for every call, instead of a closure per call: it hands its resolve function out here.
const noResolve = () => {};
let capturedResolve: (envelope: Envelope) => void = noResolve;
const captureResolve = (resolve: (envelope: Envelope) => void) => {
  capturedResolve = resolve;
};

/** An asynchronous tool call under the watchdog: settles once, on the tool's result, the deadline or an abort. */
class PendingCall extends Watched {
  readonly deadline: number;
  readonly promise: Promise<Envelope>;
  readonly #tool: AnyTool;
  readonly #hostSignal: AbortSignal | undefined;
  readonly #toolContext: CallContext;
  readonly #timeoutMs: number;
  readonly #resolve: (envelope: Envelope) => void;
  #settled = false;
  #onHostAbort: (() => void) | undefined;
  /** The batch this call waits in for its abort listener, and where; undefined once out of it. */
  #batch: (PendingCall | undefined)[] | undefined;
  #slot = 0;

  constructor(
    tool: AnyTool,
    hostSignal: AbortSignal | undefined,
    toolContext: CallContext,
    timeoutMs: number,
    deadline: number,
    pending: PromiseLike<ToolOutput<unknown>>,
  ) {
    super();
    this.#tool = tool;
    this.#hostSignal = hostSignal;
    this.#toolContext = toolContext;
    this.#timeoutMs = timeoutMs;
    this.deadline = deadline;
    this.promise = new Promise<Envelope>(captureResolve);
    this.#resolve = capturedResolve;
    // Holding it would keep this call's promise, and its result, alive until the next call.
    capturedResolve = noResolve;
    // Most calls settle within the turn they start in: only those still running at the next turn get an
    // abort listener (an EventTarget's costs some 2-3 us to add and remove), all at once.
    if (hostSignal) {
      this.#batch = unlistened;
      this.#slot = unlistened.push(this) - 1;
      if (this.#slot === 0) setImmediate(listenForHostAborts);
    }
    watchdog.watch(this);
    try {
      pending.then(
        (output) => this.#finish(toEnvelope(tool, output)),
        (error: unknown) => this.#finish(fromThrown(tool.name, error)),
      );
    } catch (error) {
      // A thenable whose `then` throws: settle now, so neither the watchdog nor the listener is left behind.
      this.#finish(fromThrown(tool.name, error));
    }
  }

  /** Listens for the host's abort, or settles at once if it came before. */
  listen(): void {
    this.#batch = undefined;
    const signal = this.#hostSignal;
    if (this.#settled || !signal) return;
    const name = this.#tool.name;
    if (signal.aborted) {
      this.#finish(aborted(name), signal.reason ?? new Error("aborted"));
      return;
    }
    this.#onHostAbort = () => this.#finish(aborted(name), signal.reason ?? new Error("aborted"));
    signal.addEventListener("abort", this.#onHostAbort, { once: true });
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
    if (this.#batch) {
      this.#batch[this.#slot] = undefined;
      this.#batch = undefined;
    }
    if (this.#onHostAbort) this.#hostSignal?.removeEventListener("abort", this.#onHostAbort);
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
