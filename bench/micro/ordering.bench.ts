// Goal 5: ordering a 10-target chain with breakers in every state ≤ 5 µs median.
// One iteration is what a request pays: plan (order + claim the ready probe)
// and finish (release the claim it never resolved).
import { bench, describe } from 'vitest';
import type { InfluenceConfig, RouteConfig, SeatConfig } from '../../packages/shared/src/index.js';
import { createInfluence } from '../../packages/daemon/src/breaker/influence.js';
import type { Evidence } from '../../packages/daemon/src/breaker/types.js';

const influenceConfig: InfluenceConfig = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 3, window_secs: 300 };
const seat = (id: string): SeatConfig => ({ id, provider: 'openai', base_url: 'http://127.0.0.1:1', api_key_env: 'K', headers: {} });
const seats = ['a', 'credit', 'rl', 'b', 'c', 'd'].map(seat);

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
const routes: RouteConfig[] = [{ model: 'bench', chain }];

let now = 1_000_000;
const influence = createInfluence(influenceConfig, seats, routes, { now: () => now }, () => {});

function evidence(target: { seat: string; model: string }, ev: Evidence, times = 1): void {
  for (let i = 0; i < times; i++) {
    const plan = influence.plan([target]);
    const planned = plan.targets[0];
    if (!planned) throw new Error('empty plan');
    influence.record(plan, planned, ev);
    influence.finish(plan);
  }
}

// Trip two model breakers, then let their cooldown pass: both become probe-ready.
evidence({ seat: 'b', model: 'ready' }, { kind: 'model_failure' }, 3);
evidence({ seat: 'c', model: 'probing' }, { kind: 'model_failure' }, 3);
now += 61_000;
// Another request claims one of the two probes and keeps it: that target is probing.
influence.plan([{ seat: 'c', model: 'probing' }]);
// Fresh trips: a seat out of credit, a rate-limited seat, a model past its threshold.
evidence({ seat: 'credit', model: 'm1' }, { kind: 'credit' });
evidence({ seat: 'rl', model: 'm1' }, { kind: 'rate_limit', retryAfterMs: 600_000 });
evidence({ seat: 'b', model: 'tripped' }, { kind: 'model_failure' }, 3);

// view() lists the chain as ordered now; compare per target.
const stateOf = new Map(influence.view(chain).map((t) => [`${t.seat}/${t.model}`, t.state]));
const states = chain.map((t) => stateOf.get(`${t.seat}/${t.model}`));
const expected = ['healthy', 'tripped', 'tripped', 'tripped', 'tripped', 'probe_ready', 'probing', 'healthy', 'healthy', 'healthy'];
if (JSON.stringify(states) !== JSON.stringify(expected)) {
  throw new Error(`ordering bench set-up drifted: states are ${states.join(',')}, expected ${expected.join(',')}`);
}

describe('ordering', () => {
  bench('plan + finish, 10-target chain, breakers in every state', () => {
    influence.finish(influence.plan(chain));
  });

  const healthy = chain.filter((_, i) => expected[i] === 'healthy');
  bench('plan + finish, 4 healthy targets (the common case)', () => {
    influence.finish(influence.plan(healthy));
  });
});
