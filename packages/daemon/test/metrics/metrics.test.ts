/**
 * `/metrics`: read back by a real Prometheus text
 * parser; every family, type and label set of the spec; values equal the
 * snapshot's at the same moment after a scripted sequence.
 */
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import type { Snapshot } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { LineClient } from '../control/line-client.js';
import { isBreaker } from '../helpers/events.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';

let cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const SPEC: Record<string, { type: MetricFamily['type']; labels: string[] }> = {
  routeplane_requests_total: { type: 'COUNTER', labels: ['route', 'family', 'lane', 'code'] },
  routeplane_attempts_total: { type: 'COUNTER', labels: ['seat', 'model', 'evidence'] },
  routeplane_failovers_total: { type: 'COUNTER', labels: ['route'] },
  routeplane_fail_open_total: { type: 'COUNTER', labels: ['route'] },
  routeplane_background_skipped_total: { type: 'COUNTER', labels: ['route'] },
  routeplane_target_state: { type: 'GAUGE', labels: ['seat', 'model', 'state'] },
  routeplane_breaker_open: { type: 'GAUGE', labels: ['seat', 'model', 'kind', 'scope'] },
  routeplane_breaker_remaining_seconds: { type: 'GAUGE', labels: ['seat', 'model', 'kind', 'scope'] },
  routeplane_probes_total: { type: 'COUNTER', labels: ['seat', 'model', 'result'] },
  routeplane_usage_utilization: { type: 'GAUGE', labels: ['seat', 'window'] },
  routeplane_tokens_total: { type: 'COUNTER', labels: ['seat', 'model', 'kind'] },
  routeplane_cost_total: { type: 'COUNTER', labels: ['seat', 'model', 'currency'] },
  routeplane_upstream_first_byte_seconds: { type: 'HISTOGRAM', labels: ['seat'] },
  routeplane_request_duration_seconds: { type: 'HISTOGRAM', labels: ['route', 'lane'] },
  routeplane_store_up: { type: 'GAUGE', labels: [] },
};

const UNIFIED = {
  'anthropic-ratelimit-unified-status': 'allowed',
  'anthropic-ratelimit-unified-5h-utilization': '0.62',
  'anthropic-ratelimit-unified-5h-reset': String(Math.floor(Date.now() / 1000) + 7200),
  'anthropic-ratelimit-unified-5h-status': 'allowed',
};

async function fixture(): Promise<{ t: TestDaemon; a: FakeUpstream; b: FakeUpstream; c: FakeUpstream }> {
  const message = {
    id: 'msg',
    type: 'message',
    role: 'assistant',
    content: [],
    usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 2 },
  };
  const a = await startFakeUpstream(respond.json(200, message, UNIFIED));
  const b = await startFakeUpstream(respond.json(200, message));
  const c = await startFakeUpstream(respond.json(200, message));
  cleanup.push(
    () => a.close(),
    () => b.close(),
    () => c.close(),
  );
  const t = await startTestDaemon({
    seats: [
      { id: 'a', provider: 'anthropic', upstream: a, price: { input: 3, output: 15 } },
      { id: 'b', provider: 'anthropic', upstream: b },
      { id: 'c', provider: 'anthropic', upstream: c },
    ],
    routes: [
      {
        model: 'sonnet',
        chain: [
          { seat: 'a', model: 'claude-sonnet-5' },
          { seat: 'b', model: 'claude-sonnet-5' },
          { seat: 'c', model: 'claude-haiku-4-5' },
        ],
      },
    ],
    influence: { enabled: true, cooldown_secs: 60, trip_threshold: 1 },
  });
  cleanup.push(() => t.close());
  return { t, a, b, c };
}

const post = (t: TestDaemon) => t.post('/v1/messages', { model: 'sonnet', max_tokens: 10, messages: [] }).then((r) => r.text());

describe('/metrics', () => {
  it('every family of the spec, with its type and labels; values as the snapshot says at the same moment', async () => {
    const { t, a, b } = await fixture();
    const secretProbe = t.keys.a!;
    await post(t); // a serves: tokens, usage windows
    a.enqueue(respond.json(402, { type: 'error', error: { type: 'billing_error', message: 'out of credit' } }));
    await post(t); // a 402 → credit trips a, b serves
    await t.events.take(isBreaker('tripped', 'a'));
    b.enqueue(respond.json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    await post(t); // b 529 → errors trip b/sonnet (threshold 1), c serves
    await t.events.take(isBreaker('tripped', 'b'));

    const client = await LineClient.connect(t.daemon.socketPath);
    cleanup.push(() => client.close());
    const res = await fetch(`${t.url}/metrics`);
    const { result: snapshot } = (await client.request('snapshot')) as { result: Snapshot };
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).not.toContain(secretProbe);
    const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));

    for (const [name, spec] of Object.entries(SPEC)) {
      const family = families.get(name);
      expect(family, name).toBeDefined();
      expect(family!.type, name).toBe(spec.type);
      if (spec.type === 'HISTOGRAM') {
        // the parser folds a histogram's labelled series into one; its label sets are read from the lines
        const series = [...text.matchAll(new RegExp(`^${name}_(?:bucket|sum|count)\\{([^}]*)\\}`, 'gm'))];
        expect(series.length, name).toBeGreaterThan(0);
        for (const [, labels] of series) {
          const names = [...labels!.matchAll(/(\w+)="/g)].map((m) => m[1]).filter((l) => l !== 'le');
          expect(names.sort(), name).toEqual([...spec.labels].sort());
        }
        continue;
      }
      for (const sample of family!.metrics) {
        const labels = Object.keys(sample.labels ?? {})
          .filter((l) => l !== 'le')
          .sort();
        expect(labels, name).toEqual([...spec.labels].sort());
        for (const v of Object.values(sample.labels ?? {})) expect(v, name).not.toBe('undefined');
      }
    }
    const samples = (name: string) => families.get(name)!.metrics;
    const value = (name: string, labels: Record<string, string>) =>
      Number(samples(name).find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value ?? Number.NaN);

    // counters agree with the snapshot's counters
    const sum = (name: string) => samples(name).reduce((n, m) => n + Number(m.value), 0);
    expect(sum('routeplane_requests_total')).toBe(snapshot.counters.requests);
    expect(sum('routeplane_failovers_total')).toBe(snapshot.counters.failovers);
    expect(value('routeplane_requests_total', { route: 'sonnet', family: 'anthropic', lane: 'foreground', code: '2xx' })).toBe(3);
    expect(value('routeplane_attempts_total', { seat: 'a', model: 'claude-sonnet-5', evidence: 'credit' })).toBe(1);
    expect(value('routeplane_attempts_total', { seat: 'b', model: 'claude-sonnet-5', evidence: 'model_error' })).toBe(1);
    expect(value('routeplane_tokens_total', { seat: 'a', model: 'claude-sonnet-5', kind: 'input' })).toBe(10);
    expect(value('routeplane_tokens_total', { seat: 'c', model: 'claude-haiku-4-5', kind: 'cache_write' })).toBe(2);
    // seat a's price (input 3, output 15 per million) on its one served answer: 10 × 3 + 5 × 15; b and c have none
    expect(value('routeplane_cost_total', { seat: 'a', model: 'claude-sonnet-5', currency: 'USD' })).toBeCloseTo(105 / 1e6, 12);
    expect(samples('routeplane_cost_total').map((m) => m.labels?.seat)).toEqual(['a']);

    // gauges: one per target state, one per breaker, as the snapshot has them
    for (const route of snapshot.routes) {
      for (const target of route.chain) {
        expect(
          value('routeplane_target_state', { seat: target.seat, model: target.model, state: target.state }),
          `${target.seat}/${target.model}`,
        ).toBe(1);
      }
    }
    expect(samples('routeplane_breaker_open')).toHaveLength(snapshot.breakers.length);
    for (const b of snapshot.breakers) {
      const labels = { seat: b.seat ?? '', model: b.model ?? '', kind: b.kind, scope: b.scope };
      expect(value('routeplane_breaker_open', labels)).toBe(1);
      expect(value('routeplane_breaker_remaining_seconds', labels)).toBeCloseTo((b.until! - snapshot.now) / 1000, 0);
    }
    expect(snapshot.breakers.map((b) => b.key).sort()).toEqual(['credit:a', 'errors:b/claude-sonnet-5']);
    const usage = snapshot.seats.find((s) => s.id === 'a')!.usage!;
    expect(value('routeplane_usage_utilization', { seat: 'a', window: '5h' })).toBe(
      usage.windows.find((w) => w.name === '5h')!.utilization,
    );
    expect(value('routeplane_store_up', {})).toBe(1);
  });

  it('asks for the token like /status when one is configured', async () => {
    const up = await startFakeUpstream(respond.openaiChat());
    cleanup.push(() => up.close());
    const t = await startTestDaemon({
      seats: [{ id: 'a', provider: 'openai', upstream: up }],
      routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'm' }] }],
      server: { auth_token: 'metrics-token' },
    });
    cleanup.push(() => t.close());
    expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer metrics-token' } })).status).toBe(200);
  });
});
