import { metrics } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CollectingReader } from "../support/collecting-reader.js";
import { type Fixture, jsonBody, startFixture } from "./server-fixture.js";

let f: Fixture;
const reader = new CollectingReader();
const provider = new MeterProvider({ readers: [reader] });
beforeAll(async () => {
  // The host's provider, registered before the server opens, as toolreg serve does.
  metrics.setGlobalMeterProvider(provider);
  f = await startFixture();
});
afterAll(async () => {
  await f.close();
  metrics.disable();
  await provider.shutdown();
});

describe("the registry server's approval metrics", () => {
  it("reports a parked call as waiting until an approver decides it", async () => {
    const gauges = () => reader.values("toolreg.approvals.");
    expect(await gauges()).toEqual({
      "toolreg.approvals.waiting {approval}": 0,
      "toolreg.approvals.waiting.age s": 0,
    });
    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      ...jsonBody({ to: "hal" }),
      key: f.keys.agentA,
    });
    expect(parked.status).toBe(202);
    const waiting = await gauges();
    expect(waiting["toolreg.approvals.waiting {approval}"]).toBe(1);
    expect(waiting["toolreg.approvals.waiting.age s"]).toBeGreaterThanOrEqual(0);
    expect(waiting["toolreg.approvals.waiting.age s"]).toBeLessThan(60);

    const { error } = (await parked.json()) as { error: { details: { approvalId: string } } };
    const decided = await f.call(`/api/v1/approvals/${error.details.approvalId}/approve`, {
      ...jsonBody({}),
      key: f.keys.aliceOperator,
    });
    expect(decided.status).toBe(200);
    expect(await gauges()).toEqual({
      "toolreg.approvals.waiting {approval}": 0,
      "toolreg.approvals.waiting.age s": 0,
    });
  });
});
