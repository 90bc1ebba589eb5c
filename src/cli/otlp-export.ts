/**
 * @module OTLP/HTTP export for the CLI (`toolreg serve`, `toolreg mcp`), set up before a command runs when
 * the standard OpenTelemetry environment asks for it (otlp-signals.ts): the calls' spans and the metrics
 * of calls and approvals go to the collector, joined to the callers' traces through the W3C propagator.
 * Loaded only then: a CLI without OTLP loads none of the SDK.
 */
import { randomUUID } from "node:crypto";
import {
  context,
  type DiagLogger,
  DiagLogLevel,
  diag,
  metrics,
  propagation,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { diagLogLevelFromString, getNumberFromEnv, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { OtlpSignals } from "./otlp-signals.js";

const toStderr = (message: string, ...args: unknown[]) => console.error(message, ...args);
const STDERR_DIAG: DiagLogger = {
  error: toStderr,
  warn: toStderr,
  info: toStderr,
  debug: toStderr,
  verbose: toStderr,
};

/** How long a stop waits for the last spans and metrics to be sent: a collector that is down does not hold it. */
const SHUTDOWN_MS = 5_000;

export interface OtlpExport {
  /** Sends what is still held (the last batch, a last metric reading) and stops; never throws. */
  shutdown(): Promise<void>;
}

/**
 * Registers the global context manager, propagator and the providers of `signals`. The exporters read
 * their endpoint, headers, timeout and compression from the environment themselves, the batch processor
 * its `OTEL_BSP_*`; the metric reader's interval is `OTEL_METRIC_EXPORT_INTERVAL` (60 s unless given).
 */
export function startOtlpExport(signals: OtlpSignals): OtlpExport {
  // The SDK's own complaints (a collector refusing an export) go to stderr, warnings and worse by default;
  // every level, since `toolreg mcp` speaks the protocol on stdout (the console logger prints info there).
  diag.setLogger(STDERR_DIAG, {
    logLevel: diagLogLevelFromString(process.env.OTEL_LOG_LEVEL) ?? DiagLogLevel.WARN,
  });
  // An active span follows a call across its awaits: what the tool does is the call span's child.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over toolreg's own name and instance id.
  // Each process its own instance: instances sharing a store report the same waiting approvals, and
  // their series must not collide (a collector takes them apart, or keeps the latest per instance).
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": "toolreg", "service.instance.id": randomUUID() }))
    .merge(detectResources({ detectors: [envDetector] }));
  const providers: { shutdown(): Promise<void> }[] = [];
  if (signals.traces) {
    const provider = new BasicTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    trace.setGlobalTracerProvider(provider);
    providers.push(provider);
  }
  if (signals.metrics) {
    const exportIntervalMillis = getNumberFromEnv("OTEL_METRIC_EXPORT_INTERVAL") ?? 60_000;
    const timeout = getNumberFromEnv("OTEL_METRIC_EXPORT_TIMEOUT");
    const provider = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: new OTLPMetricExporter(),
          exportIntervalMillis,
          // The reader refuses a timeout past its interval.
          ...(timeout === undefined ? {} : { exportTimeoutMillis: Math.min(timeout, exportIntervalMillis) }),
        }),
      ],
    });
    metrics.setGlobalMeterProvider(provider);
    providers.push(provider);
  }
  return {
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_MS);
        timer.unref();
      });
      await Promise.race([Promise.allSettled(providers.map((provider) => provider.shutdown())), deadline]);
      clearTimeout(timer);
    },
  };
}
