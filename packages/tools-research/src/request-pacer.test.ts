import { describe, expect, it } from "vitest";
import { createRequestPacer } from "./request-pacer.js";

function contextFor(deadline: number, signal = new AbortController().signal) {
  // The pacer reads only the deadline and the signal of a call's context.
  return { deadline, signal } as Parameters<ReturnType<typeof createRequestPacer>["turn"]>[0];
}

describe("the request pacer", () => {
  it("spaces turns by the interval, in the order they were asked", async () => {
    const pacer = createRequestPacer("arXiv", 60, "test");
    const started = Date.now();
    const times: number[] = [];
    await Promise.all(
      [0, 1, 2].map(async () => {
        await pacer.turn(contextFor(Date.now() + 5_000));
        times.push(Date.now() - started);
      }),
    );
    expect(times[1]).toBeGreaterThanOrEqual(55);
    expect(times[2]).toBeGreaterThanOrEqual(115);
  });

  it("refuses a turn past the call's deadline at once, as a rate limit saying how long to wait", async () => {
    const pacer = createRequestPacer("arXiv", 3_000, "one request every three seconds");
    await pacer.turn(contextFor(Date.now() + 10_000));
    const started = Date.now();
    const refused = await pacer.turn(contextFor(Date.now() + 1_000)).catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(refused).toMatchObject({ envelopeCode: "upstream_rate_limited", retryable: true });
    expect((refused as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(2_500);
  });

  it("stops waiting when the call is aborted", async () => {
    const pacer = createRequestPacer("NCBI", 5_000, "test");
    await pacer.turn(contextFor(Date.now() + 60_000));
    const controller = new AbortController();
    const waiting = pacer.turn(contextFor(Date.now() + 60_000, controller.signal));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ envelopeCode: "timeout" });
  });

  it("does not wait at all with no interval", async () => {
    const pacer = createRequestPacer("NCBI", 0, "test");
    const started = Date.now();
    // Five turns at a 400 ms interval would take 1.6 s; none at all takes a few ms.
    for (let turn = 0; turn < 5; turn++) await pacer.turn(contextFor(Date.now() + 1_000));
    expect(Date.now() - started).toBeLessThan(400);
  });
});
