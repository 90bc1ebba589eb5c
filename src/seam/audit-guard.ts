/**
 * @module The audit trail's guard. A write that fails is not dropped: the event waits in a bounded
 * backlog (or in the sink's own buffer, for a sink that keeps what it could not write) and is offered
 * again. While events wait unwritten, a call that changes data is refused (`refuse`, the default: no side
 * effect goes unrecorded) or runs with an alert in the log (`alert`), as the deployment chose. Reads run.
 */
import type { AuditEvent, AuditSink } from "../ports/stores.js";
import type { Logger } from "./context.js";
import { type ErrorEnvelope, failure } from "./envelope.js";
import { describeThrown } from "./to-envelope.js";

/** What a call that changes data does while the audit trail cannot be written. */
export type AuditFailureMode = "refuse" | "alert";

/** Events kept past this are dropped oldest first, and the count is logged. */
const MAX_BACKLOG = 10_000;
/** An alert is logged at most this often while the trail is failing. */
const ALERT_EVERY_MS = 10_000;

/**
 * Where audit trouble goes when the host gave the seam no logger: an event that cannot be written must
 * not vanish into a silent default. Errors only, as JSON lines on stderr.
 */
const lastResort: Logger = {
  debug() {},
  info() {},
  warn() {},
  error(object, message) {
    console.error(JSON.stringify({ level: "error", msg: message, ...object }, errorReplacer));
  },
};

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message, name: value.name } : value;
}

export class AuditGuard {
  readonly #sink: AuditSink;
  readonly #mode: AuditFailureMode;
  readonly #logger: Logger;
  readonly #observer: ((event: AuditEvent) => void) | undefined;
  #backlog: AuditEvent[] = [];
  #lastError: unknown;
  #alertedAt = 0;
  #closed = false;
  /** The offer under way, so that concurrent calls wait for one offer instead of writing events twice. */
  #offering: Promise<boolean> | undefined;

  /** `logger` undefined: the host gave none, and audit trouble goes to stderr rather than nowhere. */
  constructor(
    sink: AuditSink,
    mode: AuditFailureMode,
    logger: Logger | undefined,
    observer?: (event: AuditEvent) => void,
  ) {
    this.#sink = sink;
    this.#mode = mode;
    this.#logger = logger ?? lastResort;
    this.#observer = observer;
  }

  /** Tells the host's observer of an event a store already wrote with the change it belongs to. */
  announce(event: AuditEvent): void {
    try {
      this.#observer?.(event);
    } catch (error) {
      this.#logger.error({ err: error }, "the audit observer failed");
    }
  }

  /** Synchronous when the sink is: a call does not wait a tick for an in-memory append. */
  record(event: AuditEvent, logger: Logger = this.#logger): void | Promise<void> {
    this.announce(event);
    if (this.#closed) {
      // A call that ended after its process stopped: the sink may be closed, the log is not.
      this.#logger.error({ event }, "audit event recorded after the stop; it is in this log only");
      return;
    }
    try {
      const pending = this.#sink.record(event);
      if (pending) return pending.then(undefined, (error: unknown) => this.#keep(event, error, logger));
    } catch (error) {
      this.#keep(event, error, logger);
    }
  }

  /** Whether events are waiting unwritten, here or in the sink. */
  get failing(): boolean {
    return this.#backlog.length > 0 || this.#sink.failure?.() !== undefined;
  }

  /**
   * Before a call that changes data: nothing while the trail is healthy (no promise, no store read);
   * otherwise the waiting events are offered again, and the call is refused if they still cannot be
   * written and the deployment says to refuse.
   */
  admit(toolName: string): undefined | Promise<ErrorEnvelope | undefined> {
    if (!this.failing) return undefined;
    return this.#offerAgain().then((written) => {
      if (written) return undefined;
      const reason = describeThrown(this.#sink.failure?.() ?? this.#lastError);
      if (this.#mode === "alert") {
        const now = Date.now();
        if (now - this.#alertedAt >= ALERT_EVERY_MS) {
          this.#alertedAt = now;
          this.#logger.error(
            { tool: toolName, reason },
            "audit trail failing; calls that change data run anyway (alert)",
          );
        }
        return undefined;
      }
      return failure(
        "internal",
        `${toolName} was not run: the audit trail cannot be written (${reason}), and calls that change data are refused until it can. Retry later`,
        { retryable: true, retryAfterMs: 5_000, details: { audit: "unavailable" } },
      );
    });
  }

  /** Offers every waiting event again, one offer at a time; true when none is left waiting. */
  #offerAgain(): Promise<boolean> {
    this.#offering ??= this.#offer().finally(() => {
      this.#offering = undefined;
    });
    return this.#offering;
  }

  async #offer(): Promise<boolean> {
    while (this.#backlog.length > 0) {
      const event = this.#backlog[0] as AuditEvent;
      try {
        await this.#sink.record(event);
      } catch (error) {
        this.#lastError = error;
        return false;
      }
      this.#backlog.shift();
    }
    try {
      await this.#sink.flush?.();
    } catch {
      // The sink kept its events and says so through failure().
    }
    return !this.failing;
  }

  /** The last chance, as the process stops: what still cannot be written goes to the log whole. */
  async close(): Promise<void> {
    if (this.failing && !(await this.#offerAgain())) {
      for (const event of this.#backlog) this.#logger.error({ event }, "audit event could not be written");
      this.#backlog = [];
    }
    this.#closed = true;
  }

  #keep(event: AuditEvent, error: unknown, logger: Logger): void {
    this.#lastError = error;
    this.#backlog.push(event);
    if (this.#backlog.length > MAX_BACKLOG) {
      const dropped = this.#backlog.shift();
      this.#logger.error({ event: dropped }, "audit backlog full; the oldest event is logged and dropped");
    }
    logger.error({ err: error, tool: event.tool }, "audit sink failed; the event is kept and offered again");
  }
}
