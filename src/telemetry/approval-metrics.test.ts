import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { metrics } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it } from "vitest";
import { CollectingReader } from "../../test/support/collecting-reader.js";
import { until } from "../../test/support/until.js";
import type { ApprovalStore, NewApproval } from "../ports/stores.js";
import { createMemoryApprovalStore } from "../stores/memory/approvals.js";
import { openSqliteStores } from "../stores/sqlite/index.js";
import { observeWaitingApprovals } from "./approval-metrics.js";

/** The toolreg approval gauges in one collection. */
const gauges = (reader: CollectingReader) => reader.values("toolreg.approvals.");

const MINUTE = 60_000;
const nothingWaiting = { "toolreg.approvals.waiting {approval}": 0, "toolreg.approvals.waiting.age s": 0 };
const NOW = 10 * MINUTE;

const approvalOf = (tenantId: string, id: string, createdAt: number): NewApproval => ({
  tenantId,
  id,
  toolName: "send_email",
  toolVersion: "1.0.0",
  effect: "external-write",
  definitionHash: "sha256:abc",
  input: { to: "hal" },
  description: "Send a mail to hal",
  requestedBy: "agent-a",
  runId: "run-1",
  toolCallId: `call-${id}`,
  idempotencyKey: `key-${id}`,
  fingerprint: "fp-1",
  createdAt,
  expiresAt: createdAt + 60 * MINUTE,
});

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function providerWithReader(): { provider: MeterProvider; reader: CollectingReader } {
  const reader = new CollectingReader();
  const provider = new MeterProvider({ readers: [reader] });
  cleanups.push(() => provider.shutdown());
  return { provider, reader };
}

function sqliteApprovals(): ApprovalStore {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-metrics-"));
  const stores = openSqliteStores(join(directory, "stores.db"));
  cleanups.push(() => {
    stores.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return stores.approvals;
}

describe.each([
  ["memory", () => createMemoryApprovalStore()],
  ["sqlite", sqliteApprovals],
])("waiting approvals over the %s store", (_name, open) => {
  it("reports how many wait and the oldest one's age, until they are decided", async () => {
    const approvals = open();
    const { provider, reader } = providerWithReader();
    cleanups.push(
      observeWaitingApprovals(approvals, { meter: provider.getMeter("toolreg"), now: () => NOW }),
    );

    expect(await gauges(reader)).toEqual(nothingWaiting);

    await approvals.create(approvalOf("tenant-a", "newer", 7 * MINUTE));
    await approvals.create(approvalOf("tenant-b", "older", 4 * MINUTE));
    expect(await gauges(reader)).toEqual({
      "toolreg.approvals.waiting {approval}": 2,
      "toolreg.approvals.waiting.age s": 360,
    });

    await approvals.decide({ tenantId: "tenant-b", id: "older", decision: "approved", by: "bob", at: NOW });
    expect(await gauges(reader)).toEqual({
      "toolreg.approvals.waiting {approval}": 1,
      "toolreg.approvals.waiting.age s": 180,
    });

    await approvals.decide({ tenantId: "tenant-a", id: "newer", decision: "denied", by: "bob", at: NOW });
    expect(await gauges(reader)).toEqual(nothingWaiting);
  });
});

describe("waiting approvals", () => {
  it("stops reading the store once the returned function is called", async () => {
    const approvals = createMemoryApprovalStore();
    await approvals.create(approvalOf("tenant-a", "parked", 4 * MINUTE));
    const { provider, reader } = providerWithReader();
    const stop = observeWaitingApprovals(approvals, { meter: provider.getMeter("toolreg"), now: () => NOW });
    expect(await gauges(reader)).toMatchObject({ "toolreg.approvals.waiting {approval}": 1 });
    stop();
    await approvals.create(approvalOf("tenant-a", "unseen", 5 * MINUTE));
    // The SDK repeats the last value it was given; the second approval is never counted.
    expect(await gauges(reader)).toMatchObject({ "toolreg.approvals.waiting {approval}": 1 });
  });

  it("logs a store that cannot be read and leaves the collection without the gauges", async () => {
    const directory = mkdtempSync(join(tmpdir(), "toolreg-metrics-"));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const stores = openSqliteStores(join(directory, "stores.db"));
    stores.close();
    const warnings: unknown[] = [];
    const { provider, reader } = providerWithReader();
    cleanups.push(
      observeWaitingApprovals(stores.approvals, {
        meter: provider.getMeter("toolreg"),
        logger: { warn: (object) => warnings.push(object) },
      }),
    );
    expect(await gauges(reader)).toEqual({});
    expect(warnings).toEqual([
      { err: expect.objectContaining({ message: expect.stringMatching(/not open/) }) },
    ]);
  });

  it("reports through a global MeterProvider the host sets after it is called", async () => {
    const approvals = createMemoryApprovalStore();
    await approvals.create(approvalOf("tenant-a", "parked", 4 * MINUTE));
    cleanups.push(observeWaitingApprovals(approvals, { now: () => NOW }));
    const { provider, reader } = providerWithReader();
    expect(metrics.setGlobalMeterProvider(provider)).toBe(true);
    cleanups.push(() => metrics.disable());
    const reported = await until("the gauges on the new provider", 5_000, async () => {
      const values = await gauges(reader);
      return Object.keys(values).length > 0 ? values : undefined;
    });
    expect(reported).toEqual({
      "toolreg.approvals.waiting {approval}": 1,
      "toolreg.approvals.waiting.age s": 360,
    });
  });
});
