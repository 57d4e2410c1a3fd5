import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { expect } from "vitest";

export type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * GET /metrics with a bearer token: its status, content type and, for a 200, the metric families
 * and every sample, both read by a Prometheus text-format parser.
 */
export async function scrape(baseUrl: string, token: string | null) {
  const response = await fetch(`${baseUrl}/metrics`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  if (response.status !== 200) {
    return { status: response.status, text, families: [], samples: [], contentType: "" };
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text,
    families: parsePrometheusTextFormat(text),
    samples: samplesOf(text),
  };
}

/**
 * Every sample line with its own labels. The parser folds a labelled histogram's buckets into
 * one unlabelled entry, so the samples are read with the TYPE lines removed: each line is then
 * an untyped sample under its full name (`…_bucket`, `…_sum`, `…_count`) with all its labels.
 */
function samplesOf(text: string): Sample[] {
  const untyped = text
    .split("\n")
    .filter((line) => !line.startsWith("# TYPE"))
    .join("\n");
  return parsePrometheusTextFormat(untyped).flatMap((family: MetricFamily) =>
    family.metrics.map((metric) => ({
      name: family.name,
      labels: metric.labels ?? {},
      value: Number(metric.value),
    })),
  );
}

/** The value of the one sample of `name` whose labels include `labels` (0 when there is none). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const matching = samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return matching.reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * Label values that look like an identifier or a client's text: a cuid2 or uuid, a long run of
 * letters and digits, a path segment that is not a route parameter, a query string, a space.
 */
export function idLikeLabels(samples: Sample[], knownIds: string[]): string[] {
  const suspicious: string[] = [];
  for (const sample of samples) {
    for (const [label, value] of Object.entries(sample.labels)) {
      const looksLikeId =
        knownIds.some((id) => value.includes(id)) ||
        /[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value) ||
        /(^|[/:_-])[a-z0-9]{20,}($|[/?])/i.test(value) ||
        /[?#\s]/.test(value);
      if (looksLikeId) suspicious.push(`${sample.name}{${label}="${value}"}`);
    }
  }
  return suspicious;
}

export function expectFamilies(families: MetricFamily[], expected: Record<string, string>) {
  const types = Object.fromEntries(families.map((family) => [family.name, family.type]));
  expect(types).toMatchObject(expected);
}
