/**
 * `/metrics` read back by a real Prometheus text parser, for tests that look
 * at a few values: `value(name, labels)` is the sample whose labels include
 * those given (NaN when there is none); `sum(name, labels)` adds every such
 * sample.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { TestDaemon } from '../helpers/test-daemon.js';

export interface Scraped {
  value(name: string, labels?: Record<string, string>): number;
  sum(name: string, labels?: Record<string, string>): number;
}

export async function scrape(t: TestDaemon): Promise<Scraped> {
  const res = await fetch(`${t.url}/metrics`);
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const families = new Map(parsePrometheusTextFormat(await res.text()).map((f) => [f.name, f]));
  const matching = (name: string, labels: Record<string, string>) =>
    (families.get(name)?.metrics ?? []).filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return {
    value(name, labels = {}) {
      const found = matching(name, labels)[0];
      return found === undefined ? Number.NaN : Number(found.value);
    },
    sum(name, labels = {}) {
      return matching(name, labels).reduce((n, m) => n + Number(m.value), 0);
    },
  };
}
