import type {
  Breaker,
  BreakerAction,
  InfluenceConfig,
  OpenBreaker,
  RouteConfig,
  SeatConfig,
  Snapshot,
  SnapshotRoute,
} from '@routeplane/shared';
import type { Evidence } from '../signals/evidence.js';
import { reset, probeNow } from './commands.js';
import { advance, nextDueAt } from './deadlines.js';
import { disabledInfluence } from './disabled.js';
import { installBreaker } from './install.js';
import { type EngineState, limitsOf } from './engine-state.js';
import { countSkipped, finish, plan, preview } from './planning.js';
import { openBreakers, routes, seats } from './projections.js';
import { record } from './recording.js';
import { type BreakerStore, MemoryStore } from './store.js';
import { Streaks } from './streaks.js';
import { BreakerTable } from './table.js';
import { Topology } from './topology.js';
import type {
  BreakerChange,
  Clock,
  Influence,
  Plan,
  PlanEntry,
  PlannedTarget,
  PlanOptions,
  ProbeOutcome,
  Recorded,
  ResetOutcome,
} from './types.js';

export interface InfluenceDeps {
  clock: Clock;
  /** where breaker events go (the daemon's bus) */
  onChange: (change: BreakerChange) => void;
  /** this daemon's id, `hostname:pid`, stamped on its events as `origin` */
  origin?: string;
  store?: BreakerStore;
  /** the engine's next due time moved without an event (a pending count): reschedule its timer */
  wake?: () => void;
}

export function createInfluence(
  cfg: InfluenceConfig,
  seats: readonly SeatConfig[],
  routes: readonly RouteConfig[],
  deps: InfluenceDeps,
): Influence {
  const topology = new Topology(seats, routes);
  if (!cfg.enabled) return disabledInfluence(topology, deps.clock);
  return new InfluenceEngine(cfg, topology, deps);
}

/**
 * The routing-influence breaker:
 * only negative evidence reorders, a success or an expired deadline
 * restores. Pure — time comes from the clock, changes leave through
 * `onChange`. Its parts: planning and claims (planning.ts), evidence
 * (recording.ts), deadlines (deadlines.ts), commands (commands.ts) and what
 * it shows (projections.ts), over one table of breakers (table.ts).
 */
export class InfluenceEngine implements Influence {
  readonly enabled = true;
  private readonly s: EngineState;

  constructor(cfg: InfluenceConfig, topology: Topology, deps: InfluenceDeps) {
    const store = deps.store ?? new MemoryStore(deps.clock.now());
    const origin = deps.origin ?? 'local';
    this.s = {
      limits: limitsOf(cfg),
      topology,
      clock: deps.clock,
      table: new BreakerTable(deps.onChange, store, origin, deps.wake),
      streaks: new Streaks(cfg.window_secs * 1000),
      store,
      origin,
      nextClaimId: 1,
    };
  }

  /** The engine's parts share this; the shared-state store and the state file work on it directly. */
  get state(): EngineState {
    return this.s;
  }

  plan(entries: readonly PlanEntry[], options?: PlanOptions): Plan | Promise<Plan> {
    this.catchUp();
    return plan(this.s, entries, options);
  }

  preview(entries: readonly PlanEntry[], pinnedIndex: number | null): PlannedTarget[] {
    this.catchUp();
    return preview(this.s, entries, pinnedIndex);
  }

  record(p: Plan, target: PlannedTarget, evidence: Evidence): Recorded {
    this.catchUp();
    return record(this.s, p, target, evidence);
  }

  finish(p: Plan): void {
    if (p.claims.length > 0) finish(this.s, p);
  }

  countSkipped(p: Plan): void {
    countSkipped(this.s, p);
  }

  reset(seat?: string, model?: string): ResetOutcome {
    this.catchUp();
    return reset(this.s, seat, model);
  }

  probe(seat: string, model?: string): ProbeOutcome {
    this.catchUp();
    return probeNow(this.s, seat, model);
  }

  breakers(): Breaker[] {
    this.catchUp();
    return this.s.table.publishedBreakers();
  }

  routes(): SnapshotRoute[] {
    this.catchUp();
    return routes(this.s);
  }

  seats(): Snapshot['seats'] {
    this.catchUp();
    return seats(this.s);
  }

  open(): OpenBreaker[] {
    this.catchUp();
    return openBreakers(this.s);
  }

  /**
   * A reloaded config: new limits and topology
   * for requests that start from now on; breakers of seats and targets that
   * still exist are kept, those of removed ones end (a `reset` event, reason
   * "removed by reload").
   */
  reconfigure(cfg: InfluenceConfig, topology: Topology): void {
    this.s.limits = limitsOf(cfg);
    this.s.topology = topology;
    for (const held of [...this.s.table.values()]) {
      if (!stillConfigured(held.b, topology)) this.s.table.end(held.b.key, 'reset', 'removed by reload');
    }
    for (const [name] of [...this.s.streaks.entries()]) {
      if (!streakConfigured(name, topology)) this.s.streaks.reset(name);
    }
  }

  /** A breaker as another source holds it (state file, shared store); null ends it. */
  install(key: string, breaker: Breaker | null, action: BreakerAction, reason: string, origin: string): void {
    installBreaker(this.s, key, breaker, action, reason, origin);
  }

  nextTimerAt(): number | null {
    return nextDueAt(this.s);
  }

  fireTimers(): void {
    advance(this.s, this.s.clock.now());
  }

  /** What came due since the timer last ran is applied before anything reads or routes. */
  private catchUp(): void {
    if (this.s.table.size > 0) advance(this.s, this.s.clock.now());
  }
}

/** Does anything configured still stand behind this breaker? */
export function stillConfigured(b: Breaker, topology: Topology): boolean {
  switch (b.scope) {
    case 'seat':
      return b.seat !== null && topology.hasSeat(b.seat);
    case 'model':
      return b.seat !== null && b.model !== null && topology.hasTarget(b.seat, b.model);
    case 'provider':
      return [...topology.seats.values()].some((seat) => seat.upstream === b.upstream && seat.models.includes(b.model ?? ''));
  }
}

/** Target streaks are `seat/model`, provider streaks `upstream/model`. */
function streakConfigured(name: string, topology: Topology): boolean {
  for (const seat of topology.seats.values()) {
    for (const model of seat.models) {
      if (name === `${seat.id}/${model}` || name === `${seat.upstream}/${model}`) return true;
    }
  }
  return false;
}
