import type { Metric, MetricValue, Registry } from "prom-client";

type Series = {
  labels: { method: string; route: string; status_code: string };
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  counts: Float64Array;
  sum: number;
  count: number;
};

/**
 * http_request_duration_seconds, kept by hand: prom-client's Histogram validates and hashes its
 * label object on every observation (2.4 µs a request when measured, against 0.4 µs for a map
 * lookup and a bucket search). Observations only add to numbers; the text format is built from
 * them at scrape time, by the registry, like any other metric's.
 */
export function registerRequestHistogram(
  registry: Registry,
  options: { name: string; help: string; buckets: number[] },
) {
  const { name, help, buckets } = options;
  const series = new Map<string, Series>();

  const metric = {
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    reset: () => series.clear(),
    async get() {
      const values: MetricValue<string>[] = [];
      for (const { labels, counts, sum, count } of series.values()) {
        let cumulative = 0;
        buckets.forEach((bound, index) => {
          cumulative += counts[index]!;
          values.push({
            labels: { ...labels, le: bound },
            value: cumulative,
            metricName: `${name}_bucket`,
          } as MetricValue<string>);
        });
        values.push({
          labels: { ...labels, le: "+Inf" },
          value: count,
          metricName: `${name}_bucket`,
        } as MetricValue<string>);
        values.push({ labels, value: sum, metricName: `${name}_sum` } as MetricValue<string>);
        values.push({ labels, value: count, metricName: `${name}_count` } as MetricValue<string>);
      }
      return { name, help, type: "histogram", values, aggregator: "sum" };
    },
  };
  registry.registerMetric(metric as unknown as Metric);

  return (method: string, route: string, statusCode: number, seconds: number): void => {
    const key = `${method} ${statusCode} ${route}`;
    let entry = series.get(key);
    if (!entry) {
      entry = {
        labels: { method, route, status_code: String(statusCode) },
        counts: new Float64Array(buckets.length + 1),
        sum: 0,
        count: 0,
      };
      series.set(key, entry);
    }
    let bucket = 0;
    while (bucket < buckets.length && seconds > buckets[bucket]!) bucket += 1;
    entry.counts[bucket]! += 1;
    entry.sum += seconds;
    entry.count += 1;
  };
}
