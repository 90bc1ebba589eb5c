/**
 * @module The metrics of calls through the seam, through the OpenTelemetry metrics API: how many by tool
 * and outcome, errors by code, and the duration histogram the GenAI conventions name for tool execution.
 */
import {
  type Counter,
  createNoopMeter,
  type Histogram,
  type MeterProvider,
  metrics,
  ValueType,
} from "@opentelemetry/api";

/** Bucket bounds in seconds, as the GenAI conventions advise for operation durations. */
const DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** A name the model made up is not a label: unknown tools share one, so a hostile caller cannot flood them. */
export const UNKNOWN_TOOL = "_OTHER";

interface Instruments {
  provider: MeterProvider;
  /** Null while the provider is the API's no-op one: nothing is built to be dropped. */
  recorders: { calls: Counter; errors: Counter; duration: Histogram } | null;
}

const NOOP_METER = createNoopMeter().constructor;

/**
 * The instruments of the current global provider. The metrics API has no proxy provider: a meter taken
 * before the host registers its provider would stay a no-op, so they are made again when it changes.
 */
let current: Instruments | undefined;

function instruments(): Instruments["recorders"] {
  const provider = metrics.getMeterProvider();
  if (current?.provider === provider) return current.recorders;
  const meter = provider.getMeter("toolreg");
  current = {
    provider,
    recorders:
      meter.constructor === NOOP_METER
        ? null
        : {
            calls: meter.createCounter("toolreg.calls", {
              description: "Calls through the seam, by tool, effect and outcome.",
              unit: "{call}",
              valueType: ValueType.INT,
            }),
            errors: meter.createCounter("toolreg.call.errors", {
              description: "Calls that ended in an error envelope, by tool and error code.",
              unit: "{error}",
              valueType: ValueType.INT,
            }),
            duration: meter.createHistogram("gen_ai.execute_tool.duration", {
              description: "Duration of tool executions through the seam.",
              unit: "s",
              advice: { explicitBucketBoundaries: DURATION_BUCKETS },
            }),
          },
  };
  return current.recorders;
}

/**
 * Records one call that began at `startedAt` (epoch ms) and ended now; `errorCode` when it ended in an
 * error envelope. Reads the clock only when a meter records. Never throws.
 */
export function recordCallMetrics(
  toolName: string,
  effect: string | undefined,
  outcome: string,
  errorCode: string | undefined,
  startedAt: number,
): void {
  try {
    const recorders = instruments();
    if (!recorders) return;
    const seconds = (Date.now() - startedAt) / 1000;
    recorders.calls.add(1, {
      "gen_ai.tool.name": toolName,
      "toolreg.effect": effect ?? "unknown",
      "toolreg.outcome": outcome,
    });
    const base = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": toolName };
    if (errorCode === undefined) {
      recorders.duration.record(seconds, base);
    } else {
      recorders.errors.add(1, { "gen_ai.tool.name": toolName, "error.type": errorCode });
      recorders.duration.record(seconds, { ...base, "error.type": errorCode });
    }
  } catch {
    // A failing meter is the host's problem, never the call's.
  }
}
