/**
 * @module The sessions one host keeps: one per tenant, principal and run, at most `maxSessions` at once, each
 * named to the model by its session id; all closed when the host closes.
 */
import { type ArtifactStore, type EgressClient, type ToolContext, ToolFailure } from "toolreg/toolkit";
import type { BrowserConfig } from "./browser-config.js";
import { BrowserSession, closedFailure } from "./browser-session.js";

const REMEMBERED_CLOSINGS = 1_000;

export class BrowserSessions {
  readonly config: BrowserConfig;
  readonly #egress: EgressClient;
  readonly #artifacts: ArtifactStore | undefined;
  readonly #open = new Map<string, BrowserSession>();
  readonly #starting = new Set<string>();
  /** Starts in flight, which the host's close waits for. */
  readonly #startsInFlight = new Set<Promise<unknown>>();
  /** Why recent sessions ended, by id, so a late call is told why rather than "unknown". */
  readonly #closings = new Map<string, { key: string; reason: string }>();
  #shut = false;

  constructor(config: BrowserConfig, egress: EgressClient, artifacts: ArtifactStore | undefined) {
    this.config = config;
    this.#egress = egress;
    this.#artifacts = artifacts;
  }

  /** The caller's open session, or a new one when it has none. */
  async openFor(context: ToolContext): Promise<{ session: BrowserSession; started: boolean }> {
    const key = keyOf(context);
    const existing = this.#open.get(key);
    if (existing && existing.closedReason === undefined) return { session: existing, started: false };
    if (this.#shut) throw new ToolFailure("precondition_failed", "the browser is shutting down");
    if (this.#starting.has(key)) {
      throw new ToolFailure(
        "in_progress",
        "a browser session for this run is starting; call again in a moment",
      );
    }
    if (this.#open.size + this.#starting.size >= this.config.maxSessions) {
      throw new ToolFailure(
        "rate_limited",
        `${this.config.maxSessions} browser sessions are open on this host, the most it runs at once; close yours with browser_close when done, or try again later`,
        { retryable: true, details: { cap: "sessions", maxSessions: this.config.maxSessions } },
      );
    }
    this.#starting.add(key);
    try {
      const session = new BrowserSession(
        { tenantId: context.tenantId, principalId: context.principalId, runId: context.runId },
        {
          config: this.config,
          egress: this.#egress,
          artifacts: this.#artifacts,
          onClosed: (closed, reason) => this.#forget(key, closed, reason),
        },
      );
      // The start and, when the host closed meanwhile, the close after it: the host's close waits for both.
      const starting = session.start().then(async () => {
        if (!this.#shut) return true;
        await session.close("the host closed");
        return false;
      });
      this.#startsInFlight.add(starting);
      let kept: boolean;
      try {
        kept = await starting;
      } catch (error) {
        throw new ToolFailure(
          "upstream_error",
          `the browser could not start: ${(error as Error).message.split("\n")[0]}`,
          {
            cause: error,
          },
        );
      } finally {
        this.#startsInFlight.delete(starting);
      }
      if (!kept) {
        throw new ToolFailure("precondition_failed", "the browser is shutting down", {
          details: { sessionId: session.id },
        });
      }
      this.#open.set(key, session);
      return { session, started: true };
    } finally {
      this.#starting.delete(key);
    }
  }

  /** The caller's session named `sessionId`; another caller's id is as unknown as a made-up one. */
  get(context: ToolContext, sessionId: string): BrowserSession {
    const key = keyOf(context);
    const session = this.#open.get(key);
    if (session && session.id === sessionId) {
      if (session.closedReason !== undefined) throw closedFailure(session.id, session.closedReason);
      return session;
    }
    const closing = this.#closings.get(sessionId);
    if (closing && closing.key === key) throw closedFailure(sessionId, closing.reason);
    throw new ToolFailure(
      "precondition_failed",
      `there is no browser session ${sessionId} for this run${session ? ` (its session is ${session.id})` : ""}; start one with browser_navigate`,
      { details: { sessionId } },
    );
  }

  /**
   * Checks a URL the model gave before Chromium is asked to load it: the egress policy (its refusal is
   * thrown as is), then the port list. The proxy checks it again, and every request after it.
   */
  async check(url: URL, signal?: AbortSignal): Promise<void> {
    await this.#egress.checkTarget(url, signal);
    const port = Number(url.port || (url.protocol === "http:" ? 80 : 443));
    if (this.config.ports && !this.config.ports.includes(port)) {
      throw new ToolFailure(
        "egress_refused",
        `egress refused (port): port ${port} is not one the browser may reach (${this.config.ports.join(", ")})`,
        { details: { rule: "port", url: url.origin } },
      );
    }
  }

  /** How many sessions are open; for tests and metrics. */
  get size(): number {
    return this.#open.size;
  }

  /** Every session, for the host's close. */
  async closeAll(): Promise<void> {
    this.#shut = true;
    // A session still starting is closed by its own openFor once the start ends; wait for that too.
    await Promise.allSettled([...this.#startsInFlight]);
    await Promise.all([...this.#open.values()].map((session) => session.close("the host closed")));
  }

  #forget(key: string, session: BrowserSession, reason: string): void {
    if (this.#open.get(key) === session) this.#open.delete(key);
    this.#closings.set(session.id, { key, reason });
    while (this.#closings.size > REMEMBERED_CLOSINGS) {
      this.#closings.delete(this.#closings.keys().next().value as string);
    }
  }
}

function keyOf(context: ToolContext): string {
  return JSON.stringify([context.tenantId, context.principalId, context.runId]);
}
