import type { InfluenceConfig, RouteConfig, SeatConfig } from '@routeplane/shared';
import { createInfluence, type InfluenceDeps, InfluenceEngine } from './engine.js';
import { Topology } from './topology.js';
import type { Influence } from './types.js';

/**
 * The daemon's one Influence, whatever a reload does to it: the same engine
 * is reconfigured in place (its breakers kept), and switching influence on
 * or off swaps what is inside — off drops every breaker (a `reset` event
 * each, "removed by reload"), on starts with none. Everything that holds the
 * daemon's influence (the forwarder, the timers, the control API) holds this;
 * the breaker store works on the engine itself, so `onEngine` hands it each
 * new one (at start, and whenever a reload switches influence on).
 */
export class ReloadableInfluence implements Influence {
  private inner: Influence;

  constructor(
    cfg: InfluenceConfig,
    seats: readonly SeatConfig[],
    routes: readonly RouteConfig[],
    private readonly deps: InfluenceDeps,
    private readonly onEngine: (engine: InfluenceEngine) => void = () => {},
  ) {
    this.inner = this.create(cfg, seats, routes);
  }

  private create(cfg: InfluenceConfig, seats: readonly SeatConfig[], routes: readonly RouteConfig[]): Influence {
    const inner = createInfluence(cfg, seats, routes, this.deps);
    if (inner instanceof InfluenceEngine) this.onEngine(inner);
    return inner;
  }

  /** The engine when influence is on (a shared store and the state file work on it), else null. */
  get engine(): InfluenceEngine | null {
    return this.inner instanceof InfluenceEngine ? this.inner : null;
  }

  reconfigure(cfg: InfluenceConfig, seats: readonly SeatConfig[], routes: readonly RouteConfig[]): void {
    const engine = this.engine;
    if (engine !== null && cfg.enabled) {
      engine.reconfigure(cfg, new Topology(seats, routes));
      return;
    }
    if (engine !== null) engine.reconfigure(cfg, new Topology([], []));
    this.inner = this.create(cfg, seats, routes);
  }

  get enabled(): boolean {
    return this.inner.enabled;
  }
  plan: Influence['plan'] = (entries, options) => this.inner.plan(entries, options);
  preview: Influence['preview'] = (entries, pinnedIndex) => this.inner.preview(entries, pinnedIndex);
  record: Influence['record'] = (plan, target, evidence) => this.inner.record(plan, target, evidence);
  finish: Influence['finish'] = (plan) => this.inner.finish(plan);
  countSkipped: Influence['countSkipped'] = (plan) => this.inner.countSkipped(plan);
  reset: Influence['reset'] = (seat, model) => this.inner.reset(seat, model);
  probe: Influence['probe'] = (seat, model) => this.inner.probe(seat, model);
  breakers: Influence['breakers'] = () => this.inner.breakers();
  routes: Influence['routes'] = () => this.inner.routes();
  seats: Influence['seats'] = () => this.inner.seats();
  open: Influence['open'] = () => this.inner.open();
  nextTimerAt: Influence['nextTimerAt'] = () => this.inner.nextTimerAt();
  fireTimers: Influence['fireTimers'] = () => this.inner.fireTimers();
}
