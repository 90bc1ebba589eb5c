/** @module Metrics read back from the OpenTelemetry SDK when a test chooses, as an exporter's reader would on its interval. */
import { MetricReader } from "@opentelemetry/sdk-metrics";

/** A reader with nothing to export to: the test calls `collect()` (or `values`) itself. */
export class CollectingReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}

  /**
   * One collection: the first point of each metric named `prefix…`, keyed `name unit`; a metric with no
   * point is absent. Throws if the SDK reports an error from any callback.
   */
  async values(prefix: string): Promise<Record<string, number>> {
    const { resourceMetrics, errors } = await this.collect();
    if (errors.length > 0) throw new AggregateError(errors, "metrics collection failed");
    const values: Record<string, number> = {};
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const { descriptor, dataPoints } of scope.metrics) {
        const point = dataPoints[0];
        if (point && descriptor.name.startsWith(prefix)) {
          values[`${descriptor.name} ${descriptor.unit}`] = point.value as number;
        }
      }
    }
    return values;
  }
}
