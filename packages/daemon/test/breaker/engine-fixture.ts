import type { Breaker, InfluenceConfig, RouteConfig, SeatConfig, Signal } from '@routeplane/shared';
import { createInfluence } from '../../src/breaker/engine.js';
import { targetKeys } from '../../src/breaker/topology.js';
import type { BreakerChange, Influence, Plan, PlanEntry, PlannedTarget, PlanOptions } from '../../src/breaker/types.js';
import type { Evidence } from '../../src/signals/evidence.js';

/** A hand-driven clock: tests move time, nothing sleeps. */
export class FakeClock {
  constructor(public t = 1_000_000) {}
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

export const sig = (status: number, code: string | null = null): Signal => ({ status, type: null, code, header: null, message: null });

export interface SeatSpec {
  id: string;
  base: string;
}

/** An engine over `seats` (id + base URL: seats sharing one share a provider layer) and one route `r` over `refs`. */
export function engine(
  seatSpecs: readonly SeatSpec[],
  refs: ReadonlyArray<{ seat: string; model: string; weight?: number }>,
  over: Partial<InfluenceConfig> = {},
) {
  const clock = new FakeClock();
  const events: BreakerChange[] = [];
  const cfg: InfluenceConfig = {
    enabled: true,
    cooldown_secs: 60,
    max_cooldown_secs: 900,
    trip_threshold: 3,
    window_secs: 300,
    max_quota_secs: 604_800,
    trip_on_rejected_key: true,
    state_file: null,
    shared: null,
    ...over,
  };
  const seats: SeatConfig[] = seatSpecs.map((s) => ({
    id: s.id,
    provider: 'anthropic',
    base_url: s.base,
    api_key_env: 'K',
    api_path: '/v1',
    headers: {},
    reserve_pct: 0,
    extra_usage: 'allow',
    price: null,
  }));
  const routes: RouteConfig[] = [
    {
      model: 'r',
      balance: 'ordered',
      lane: null,
      retry: null,
      chain: refs.map((t) => ({ seat: t.seat, model: t.model, weight: t.weight ?? 1, cost_per_mtok: null, price: null })),
    },
  ];
  const baseOf = new Map(seatSpecs.map((s) => [s.id, s.base.replace(/\/+$/, '')]));
  const chain: PlanEntry[] = refs.map((t, index) => ({ keys: targetKeys(t.seat, t.model, baseOf.get(t.seat)!), index }));
  const inf = createInfluence(cfg, seats, routes, { clock, onChange: (e) => events.push(e) });
  const plan = (options?: PlanOptions): Plan => {
    const p = inf.plan(chain, options);
    if (p instanceof Promise) throw new Error('a memory-store plan must not wait');
    return p;
  };
  const find = (p: Plan, seat: string, model: string): PlannedTarget => {
    const t = p.targets.find((x) => x.seat === seat && x.model === model);
    if (!t) throw new Error(`no ${seat}/${model} in plan`);
    return t;
  };
  /** One request: plan, record one outcome on one target, finish. */
  const attempt = (seat: string, model: string, evidence: Evidence): Plan => {
    const p = plan();
    inf.record(p, find(p, seat, model), evidence);
    inf.finish(p);
    return p;
  };
  const names = (p: Plan) => p.targets.map((t) => `${t.seat}/${t.model}`);
  const breaker = (key: string): Breaker | undefined => inf.breakers().find((b) => b.key === key);
  return { clock, events, inf, chain, plan, find, attempt, names, breaker };
}

export type Engine = ReturnType<typeof engine>;
export type { Influence };

/** Transitions only, as `action key` (without the coalesced count announcements). */
export const transitions = (events: BreakerChange[]) =>
  events.filter((e) => e.action !== 'refused' && e.action !== 'skipped').map((e) => `${e.action} ${e.key}`);
