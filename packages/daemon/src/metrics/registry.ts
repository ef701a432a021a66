import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DaemonContext } from '../context.js';
import type { CountTree } from './count-tree.js';
import type { DaemonMetrics } from './daemon-metrics.js';
import { TrafficCounts, targetLabels } from './traffic.js';

/**
 * `GET /metrics`: Prometheus text exposition from
 * prom-client. Counters are kept as plain maps by `TrafficCounts` and copied
 * in when scraped; gauges are read from the engine's projections at scrape
 * time, so they match a `snapshot` taken at the same moment. Label values are
 * names only (seats, models, routes): never a key or token.
 */

export function createMetrics(ctx: DaemonContext): DaemonMetrics {
  const registry = new Registry();
  const counts = new TrafficCounts(ctx.daemonId, () => ctx.config.currency);
  const duration = new Histogram({
    name: 'routeplane_request_duration_seconds',
    help: 'Time from a request arriving to its last byte answered, by route and lane.',
    labelNames: ['route', 'lane'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const firstByte = new Histogram({
    name: 'routeplane_upstream_first_byte_seconds',
    help: "Time from sending an attempt to the upstream's response head, by seat.",
    labelNames: ['seat'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const durationOf = new Map<string, ReturnType<typeof duration.labels>>();
  const firstByteOf = new Map<string, ReturnType<typeof firstByte.labels>>();

  const unsubscribe = ctx.bus.subscribe((event) => {
    if (event.type === 'decision') {
      counts.decision(event);
      const key = `${event.route ?? ''}\t${event.lane}`;
      let child = durationOf.get(key);
      if (child === undefined) {
        child = duration.labels(event.route ?? '', event.lane);
        durationOf.set(key, child);
      }
      child.observe(event.duration_ms / 1000);
    } else if (event.type === 'breaker') counts.breaker(event);
  });

  counterFrom(
    registry,
    'routeplane_requests_total',
    'Requests answered, by route, family, lane and status class.',
    ['route', 'family', 'lane', 'code'],
    counts.requests,
  );
  counterFrom(
    registry,
    'routeplane_attempts_total',
    'Upstream attempts, by target and what the answer was evidence of.',
    ['seat', 'model', 'evidence'],
    counts.attempts,
  );
  counterFrom(registry, 'routeplane_failovers_total', 'Moves to a next target, by route.', ['route'], counts.failovers);
  counterFrom(
    registry,
    'routeplane_fail_open_total',
    'Requests that ran with every target tripped (fail open), by route.',
    ['route'],
    counts.failOpen,
  );
  counterFrom(
    registry,
    'routeplane_background_skipped_total',
    'Background requests answered 503 with nothing routable, by route.',
    ['route'],
    counts.backgroundSkipped,
  );
  counterFrom(registry, 'routeplane_probes_total', 'Probes by target and result.', ['seat', 'model', 'result'], counts.probes);
  counterFrom(
    registry,
    'routeplane_tokens_total',
    'Tokens the upstreams reported, by target and kind.',
    ['seat', 'model', 'kind'],
    counts.tokens,
    ([servedBy, kind]) => [...targetLabels(servedBy!), kind!],
  );
  counterFrom(
    registry,
    'routeplane_cost_total',
    "What the decisions cost from their targets' prices, by target and the config's currency.",
    ['seat', 'model', 'currency'],
    counts.cost,
    ([target, currency]) => [...targetLabels(target!), currency!],
  );

  new Gauge({
    name: 'routeplane_target_state',
    help: 'Each target in one state (1) of healthy, tripped, probe_ready, probing, drained.',
    labelNames: ['seat', 'model', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      const seen = new Map<string, string>();
      for (const route of ctx.influence.routes()) {
        for (const t of route.chain) {
          const label = `${t.seat}\t${t.model}`;
          // a target drained in one route and routable in another is shown by its routable state
          if (!seen.has(label) || seen.get(label) === 'drained') seen.set(label, t.state);
        }
      }
      for (const [label, current] of seen) {
        const [seat, model] = label.split('\t') as [string, string];
        for (const state of ['healthy', 'tripped', 'probe_ready', 'probing', 'drained'])
          this.set({ seat, model, state }, state === current ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'routeplane_breaker_open',
    help: 'Each active breaker (1), by target, kind and scope.',
    labelNames: ['seat', 'model', 'kind', 'scope'],
    registers: [registry],
    collect() {
      this.reset();
      for (const b of ctx.influence.breakers()) this.set({ seat: b.seat ?? '', model: b.model ?? '', kind: b.kind, scope: b.scope }, 1);
    },
  });
  new Gauge({
    name: 'routeplane_breaker_remaining_seconds',
    help: "Seconds until each active breaker's probe-ready time or deadline (0 once passed).",
    labelNames: ['seat', 'model', 'kind', 'scope'],
    registers: [registry],
    collect() {
      this.reset();
      const now = ctx.clock.now();
      for (const b of ctx.influence.breakers()) {
        const left = b.until === null ? 0 : Math.max(0, b.until - now) / 1000;
        this.set({ seat: b.seat ?? '', model: b.model ?? '', kind: b.kind, scope: b.scope }, left);
      }
    },
  });
  new Gauge({
    name: 'routeplane_usage_utilization',
    help: "Each seat's usage windows as the provider last reported them (a fraction, may exceed 1).",
    labelNames: ['seat', 'window'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [seat, usage] of ctx.usage.shownEntries())
        for (const w of usage.windows) this.set({ seat, window: w.name }, w.utilization);
    },
  });
  new Gauge({
    name: 'routeplane_usage_extra',
    help: "1 when a seat's last answer with a Claude subscription's unified headers was billed as extra usage (past the plan), 0 when not; absent before any.",
    labelNames: ['seat'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [seat, usage] of ctx.usage.shownEntries()) if (usage.extra_usage !== null) this.set({ seat }, usage.extra_usage ? 1 : 0);
    },
  });
  new Gauge({
    name: 'routeplane_store_up',
    help: 'The breaker store: 1 memory or Redis ok, 0 degraded.',
    registers: [registry],
    collect() {
      this.set(ctx.store.info().state === 'ok' ? 1 : 0);
    },
  });

  return {
    registry,
    firstByte(seat, ms) {
      let child = firstByteOf.get(seat);
      if (child === undefined) {
        child = firstByte.labels(seat);
        firstByteOf.set(seat, child);
      }
      child.observe(ms / 1000);
    },
    tokensOf: (seat) => counts.tokensOf(seat),
    stop: unsubscribe,
  };
}

/** A counter whose values are copied from `source` when scraped; `labelValues` maps a count's stored values to the label names'. */
function counterFrom(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  source: CountTree,
  labelValues: (stored: string[]) => string[] = (stored) => stored,
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [stored, value] of source.entries()) {
        const values = labelValues(stored);
        const labels: Record<string, string> = {};
        labelNames.forEach((n, i) => {
          labels[n] = values[i] ?? '';
        });
        this.inc(labels, value);
      }
    },
  });
}
