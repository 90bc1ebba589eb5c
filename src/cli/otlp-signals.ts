/**
 * @module Which signals the standard OpenTelemetry environment asks the CLI to export over OTLP/HTTP: read
 * without loading the SDK, so a CLI whose environment asks for none loads none of it.
 */

/** The signals to export; each needs an endpoint (its own or the shared one) and an exporter of `otlp`. */
export interface OtlpSignals {
  traces: boolean;
  metrics: boolean;
}

/** Empty is unset, as the OpenTelemetry configuration spec has it. */
const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** Whether `OTEL_{SIGNAL}_EXPORTER` (a list, `otlp` by default) names otlp. */
function exportsOtlp(value: string | undefined): boolean {
  if (!set(value)) return true;
  return value.split(",").some((name) => name.trim().toLowerCase() === "otlp");
}

/** The signals `env` asks for, or `undefined` when none (no endpoint, or `OTEL_SDK_DISABLED=true`). */
export function otlpSignals(env: Readonly<Record<string, string | undefined>>): OtlpSignals | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const shared = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const signals = {
    traces: (shared || set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)) && exportsOtlp(env.OTEL_TRACES_EXPORTER),
    metrics:
      (shared || set(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)) && exportsOtlp(env.OTEL_METRICS_EXPORTER),
  };
  return signals.traces || signals.metrics ? signals : undefined;
}
