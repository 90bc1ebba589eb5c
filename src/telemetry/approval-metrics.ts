/** @module Metrics for approvals waiting on a human: how many wait, and how long the oldest has waited. */
import { type BatchObservableCallback, type Meter, metrics, ValueType } from "@opentelemetry/api";
import type { ApprovalStore } from "../ports/stores.js";
import type { Logger } from "../seam/context.js";

export interface WaitingApprovalsOptions {
  /**
   * The meter to report through. Unless given, the global MeterProvider's `toolreg` meter, followed when
   * the host sets or replaces its provider later.
   */
  meter?: Meter;
  /** The clock an approval's age and expiry are read against; `Date.now` unless given. */
  now?: () => number;
  /** Told when the store cannot be read; the collection goes on without these gauges. */
  logger?: Pick<Logger, "warn">;
}

/** How often the global MeterProvider is looked at again: one comparison, so often is cheap. */
const PROVIDER_CHECK_MS = 1_000;

/**
 * Reports `toolreg.approvals.waiting` and `toolreg.approvals.waiting.age` (seconds; 0 when none wait) as
 * gauges, read from `store` in one query per collection. Returns the function that stops reporting.
 */
export function observeWaitingApprovals(
  store: Pick<ApprovalStore, "waiting">,
  options: WaitingApprovalsOptions = {},
): () => void {
  const now = options.now ?? Date.now;
  const report = (meter: Meter): (() => void) => {
    const waiting = meter.createObservableGauge("toolreg.approvals.waiting", {
      unit: "{approval}",
      description: "Approvals of every tenant waiting for a decision",
      valueType: ValueType.INT,
    });
    const age = meter.createObservableGauge("toolreg.approvals.waiting.age", {
      unit: "s",
      description: "How long the oldest approval still waiting has waited; 0 when none wait",
    });
    const observe: BatchObservableCallback = async (result) => {
      const at = now();
      try {
        const { count, oldestCreatedAt } = await store.waiting({ now: at });
        result.observe(waiting, count);
        // 0 rather than nothing: under cumulative temporality (OTLP's default) the SDK repeats a gauge's
        // last value while it goes unobserved, so the last age would stand after the queue had emptied.
        result.observe(age, oldestCreatedAt === undefined ? 0 : (at - oldestCreatedAt) / 1_000);
      } catch (error) {
        // A store that cannot be read costs these two gauges, never the host's other metrics.
        options.logger?.warn({ err: error }, "waiting approvals could not be counted");
      }
    };
    meter.addBatchObservableCallback(observe, [waiting, age]);
    return () => meter.removeBatchObservableCallback(observe, [waiting, age]);
  };
  if (options.meter) return report(options.meter);

  // The metrics API has no proxy provider: a meter taken before the host sets its provider stays a no-op
  // forever. So the global provider is looked at again, and a new one is reported through instead.
  let provider = metrics.getMeterProvider();
  let stop = report(provider.getMeter("toolreg"));
  const follow = setInterval(() => {
    const current = metrics.getMeterProvider();
    if (current === provider) return;
    stop();
    provider = current;
    stop = report(current.getMeter("toolreg"));
  }, PROVIDER_CHECK_MS);
  follow.unref();
  return () => {
    clearInterval(follow);
    stop();
  };
}
