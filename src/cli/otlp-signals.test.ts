import { describe, expect, it } from "vitest";
import { otlpSignals } from "./otlp-signals.js";

describe("otlpSignals", () => {
  it("asks for nothing without an endpoint, or with the SDK disabled", () => {
    expect(otlpSignals({})).toBeUndefined();
    expect(otlpSignals({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBeUndefined();
    expect(otlpSignals({ OTEL_SERVICE_NAME: "toolreg" })).toBeUndefined();
    expect(
      otlpSignals({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "TRUE" }),
    ).toBeUndefined();
  });

  it("exports both signals to the shared endpoint, and each to its own", () => {
    expect(otlpSignals({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toEqual({
      traces: true,
      metrics: true,
    });
    expect(otlpSignals({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toEqual({
      traces: true,
      metrics: false,
    });
    expect(otlpSignals({ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://collector:4318/v1/metrics" })).toEqual({
      traces: false,
      metrics: true,
    });
  });

  it("leaves out a signal whose exporter list does not name otlp", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(otlpSignals({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toEqual({
      traces: false,
      metrics: true,
    });
    expect(otlpSignals({ ...endpoint, OTEL_METRICS_EXPORTER: "console, OTLP" })).toEqual({
      traces: true,
      metrics: true,
    });
    expect(
      otlpSignals({ ...endpoint, OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "prometheus" }),
    ).toBeUndefined();
  });
});
