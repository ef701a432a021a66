// Goal 5: ordering a 10-target chain with breakers in every state ≤ 5 µs median.
// One iteration is what a request pays: plan (order + claim the ready probe)
// and finish (release the claim it never resolved).
import { bench, describe } from 'vitest';
import type { InfluenceConfig, RouteConfig, SeatConfig, Signal } from '../../packages/shared/src/index.js';
import { createInfluence } from '../../packages/daemon/src/breaker/engine.js';
import { targetKeys } from '../../packages/daemon/src/breaker/topology.js';
import type { Plan, PlanEntry } from '../../packages/daemon/src/breaker/types.js';
import type { Evidence } from '../../packages/daemon/src/signals/evidence.js';

const influenceConfig: InfluenceConfig = {
  enabled: true,
  cooldown_secs: 60,
  max_cooldown_secs: 900,
  trip_threshold: 3,
  window_secs: 300,
  max_quota_secs: 604_800,
  trip_on_rejected_key: true,
  state_file: null,
  shared: null,
};
// each seat its own base URL: no provider-wide breaker covers two seats
const seat = (id: string): SeatConfig => ({
  id,
  provider: 'openai',
  base_url: `http://127.0.0.1:1/${id}`,
  api_key_env: 'K',
  headers: {},
  reserve_pct: 0,
});
const seats = ['a', 'credit', 'rl', 'b', 'c', 'd'].map(seat);
const signal = (status: number): Signal => ({ status, type: null, code: null, header: null, message: null });

/** The chain: 4 healthy, seat credit ×2, seat rate limit, model tripped, model probe-ready, model probing. */
const chain = [
  { seat: 'a', model: 'm1' },
  { seat: 'credit', model: 'm1' },
  { seat: 'credit', model: 'm2' },
  { seat: 'rl', model: 'm1' },
  { seat: 'b', model: 'tripped' },
  { seat: 'b', model: 'ready' },
  { seat: 'c', model: 'probing' },
  { seat: 'c', model: 'm2' },
  { seat: 'd', model: 'm1' },
  { seat: 'd', model: 'm2' },
];
const routes: RouteConfig[] = [
  {
    model: 'bench',
    balance: 'ordered',
    lane: null,
    retry: null,
    chain: chain.map((t) => ({ ...t, weight: 1, cost_per_mtok: null })),
  },
];
const entries: PlanEntry[] = chain.map((t, index) => ({ keys: targetKeys(t.seat, t.model, `http://127.0.0.1:1/${t.seat}`), index }));
const entryOf = (seat: string, model: string): PlanEntry =>
  entries.find((e) => chain[e.index]!.seat === seat && chain[e.index]!.model === model)!;

let now = 1_000_000;
const influence = createInfluence(influenceConfig, seats, routes, { clock: { now: () => now }, onChange: () => {} });
const planOf = (list: readonly PlanEntry[]): Plan => {
  const plan = influence.plan(list);
  if (plan instanceof Promise) throw new Error('a memory-store plan must not wait');
  return plan;
};

function evidence(seat: string, model: string, ev: Evidence, times = 1): void {
  for (let i = 0; i < times; i++) {
    const plan = planOf([entryOf(seat, model)]);
    const planned = plan.targets[0];
    if (!planned) throw new Error('empty plan');
    influence.record(plan, planned, ev);
    influence.finish(plan);
  }
}

const modelError: Evidence = { class: 'model_error', signal: signal(500) };
// Trip two model breakers, then let their cooldown pass: both become probe-ready.
evidence('b', 'ready', modelError, 3);
evidence('c', 'probing', modelError, 3);
now += 61_000;
// Another request claims one of the two probes and keeps it: that target is probing.
planOf([entryOf('c', 'probing')]);
// Fresh trips: a seat out of credit, a rate-limited seat, a model past its threshold.
evidence('credit', 'm1', { class: 'credit', signal: signal(402) });
evidence('rl', 'm1', { class: 'rate_limit', waitMs: 600_000, signal: signal(429) });
evidence('b', 'tripped', modelError, 3);

// the route's chain as a request starting now would try it; compare per target
const stateOf = new Map(influence.routes()[0]!.chain.map((t) => [`${t.seat}/${t.model}`, t.state]));
const states = chain.map((t) => stateOf.get(`${t.seat}/${t.model}`));
const expected = ['healthy', 'tripped', 'tripped', 'tripped', 'tripped', 'probe_ready', 'probing', 'healthy', 'healthy', 'healthy'];
if (JSON.stringify(states) !== JSON.stringify(expected)) {
  throw new Error(`ordering bench set-up drifted: states are ${states.join(',')}, expected ${expected.join(',')}`);
}

describe('ordering', () => {
  bench('plan + finish, 10-target chain, breakers in every state', () => {
    influence.finish(planOf(entries));
  });

  const healthy = entries.filter((_, i) => expected[i] === 'healthy');
  bench('plan + finish, 4 healthy targets (the common case)', () => {
    influence.finish(planOf(healthy));
  });
});
