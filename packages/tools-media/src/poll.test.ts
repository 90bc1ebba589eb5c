/**
 * @module pollUntil on its own, with a scripted look: a status check's passing failure (5xx, 429, a look that
 * timed out) is waited out, a lasting one names the generation, and a cancel is told apart from the deadline.
 * The providers' own tests play the same cases against the fake over HTTP.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { type PollPlan, pollUntil } from "./poll.js";

type State = "running" | "done";

/** Only what pollUntil reads of a call: its deadline and its signal. */
const callOf = (ms: number, signal = new AbortController().signal) =>
  ({ deadline: Date.now() + ms, signal }) as unknown as ToolContext;

function plan(context: ToolContext, looks: Array<State | ToolFailure>, cancels: string[]): PollPlan<State> {
  return {
    context,
    intervalMs: 10,
    what: "Test generation g-1",
    generationId: "g-1",
    look: async () => {
      const next = looks.shift() ?? "running";
      if (next instanceof ToolFailure) throw next;
      return next;
    },
    finished: (state) => state === "done",
    describe: (state) => `Test generation g-1 (still ${state})`,
    cancel: async () => {
      cancels.push("g-1");
    },
  };
}

const unavailable = () =>
  new ToolFailure("upstream_error", "Test failed (503 Service Unavailable); a retry may work", {
    retryable: true,
  });

describe("pollUntil", () => {
  it("takes a retryable status-check failure as still running and looks again after Retry-After", async () => {
    const throttled = new ToolFailure("upstream_rate_limited", "slow down", {
      retryable: true,
      retryAfterMs: 60,
    });
    const cancels: string[] = [];
    const started = Date.now();
    // What egress throws when a look timed out: retryable, and not the call's own abort.
    const slow = new ToolFailure("timeout", "http://127.0.0.1/x timed out while waiting for the response", {
      retryable: true,
    });
    const done = await pollUntil(
      "running",
      plan(callOf(5_000), [unavailable(), throttled, slow, "done"], cancels),
    );
    expect(done).toBe("done");
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
    expect(cancels).toEqual([]);
  });

  it("names the generation in a status check's lasting failure", async () => {
    const gone = new ToolFailure("upstream_error", "Test refused the request (404 Not Found)", {
      retryable: false,
    });
    const failure = await pollUntil("running", plan(callOf(5_000), [gone], [])).catch((error) => error);
    expect(failure).toMatchObject({
      envelopeCode: "upstream_error",
      retryable: false,
      details: { generationId: "g-1" },
    });
    expect(failure.message).toBe("Test generation g-1: Test refused the request (404 Not Found)");
  });

  it("at the deadline, cancels the generation and says its last failed check", async () => {
    const cancels: string[] = [];
    const looks = Array.from({ length: 100 }, unavailable);
    const failure = await pollUntil("running", plan(callOf(300), looks, cancels)).catch((error) => error);
    expect(failure).toMatchObject({
      envelopeCode: "timeout",
      retryable: true,
      details: { generationId: "g-1" },
    });
    expect(failure.message).toMatch(
      /^Test generation g-1 \(still running\) did not finish within this call's time/,
    );
    expect(failure.message).toMatch(/its last status check failed: Test failed \(503/);
    expect(cancels).toEqual(["g-1"]);
  });

  it("tells a cancelled call from the deadline, and cancels the generation", async () => {
    const controller = new AbortController();
    const cancels: string[] = [];
    setTimeout(() => controller.abort(new Error("cancelled by a person")), 40);
    const failure = await pollUntil("running", plan(callOf(60_000, controller.signal), [], cancels)).catch(
      (error) => error,
    );
    expect(failure).toMatchObject({ envelopeCode: "timeout", retryable: false, details: { aborted: true } });
    expect(failure.message).toMatch(/was abandoned because this call was cancelled/);
    expect(failure.message).not.toMatch(/did not finish within/);
    expect(cancels).toEqual(["g-1"]);
  });
});
