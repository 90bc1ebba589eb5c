import { describe, expect, it } from "vitest";
import { createTestHarness } from "../../test/test-harness.js";
import { fixedTimeSource, generalTools } from "./index.js";

const pinned = Date.UTC(2026, 10, 29, 21, 30, 0);

function harness(realClock = false) {
  return createTestHarness(
    generalTools({ timeSource: fixedTimeSource(pinned) }),
    realClock ? { clock: Date.now } : {},
  );
}

describe("general toolkit through the seam", () => {
  it("now: UTC by default, a named zone on request, the provider named in the data", async () => {
    const { seam, context } = harness();
    expect(await seam.call(context(), "now", {})).toMatchObject({
      ok: true,
      data: { iso: "2026-11-29T21:30:00.000Z", epochMs: pinned, timezone: "UTC", source: "fixed" },
    });
    const paris = await seam.call(context(), "now", { timezone: "Europe/Paris" });
    expect(paris.ok && paris.content).toMatch(/29 November 2026.*22:30:00/);
    expect(await seam.call(context(), "now", { timezone: "Mars/Olympus" })).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: expect.stringContaining('"Mars/Olympus" is not an IANA time zone'),
      },
    });
  });

  it("calculate: exact decimals, and hostile expressions refused as invalid_input", async () => {
    const { seam, context } = harness();
    expect(await seam.call(context(), "calculate", { expression: "2*(3+4)^2" })).toMatchObject({
      ok: true,
      content: "98",
    });
    expect(await seam.call(context(), "calculate", { expression: "0.1 + 0.2" })).toMatchObject({
      ok: true,
      content: "0.3",
    });
    for (const expression of [
      "process.exit(1)",
      "constructor.constructor('return 1')()",
      "(".repeat(5000),
      "9^9^9^9",
    ]) {
      const refused = await seam.call(context(), "calculate", { expression: expression.slice(0, 1000) });
      expect(refused).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    }
    expect(await seam.call(context(), "calculate", { expression: "x".repeat(1001) })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("expression") },
    });
  });

  it("think: echoes the thought and changes nothing", async () => {
    const { seam, context } = harness();
    expect(await seam.call(context(), "think", { thought: "check the invoice total first" })).toEqual({
      ok: true,
      content: "Noted.",
      data: { thought: "check the invoice total first" },
    });
  });

  it("sleep: waits, ends early at the deadline, and stops on abort", async () => {
    const { seam, context } = harness(true);
    const short = await seam.call(context(), "sleep", { seconds: 0.02 });
    expect(short).toMatchObject({ ok: true, data: { requestedSeconds: 0.02, cutShort: false } });

    const started = Date.now();
    const cut = await seam.call(context({ deadline: Date.now() + 200 }), "sleep", { seconds: 30 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(cut).toMatchObject({ ok: true, data: { cutShort: true } });

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const aborted = await seam.call(context({ signal: controller.signal }), "sleep", { seconds: 30 });
    expect(aborted).toMatchObject({ ok: false, error: { code: "timeout", details: { aborted: true } } });
    expect(await seam.call(context(), "sleep", { seconds: 61 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
  });
});
