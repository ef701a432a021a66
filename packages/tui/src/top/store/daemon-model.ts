import {
  applyBreakerEvent,
  type Breaker,
  type BreakerEvent,
  type DecisionEvent,
  type InfluenceInfo,
  type RouteRef,
  routeRefOf,
  type Snapshot,
  type SnapshotSeat,
  type StoreEvent,
  type StoreInfo,
  type UsageEvent,
} from '@routeplane/shared';

/**
 * What the daemon holds, as protocol v2 says it: the
 * configured routes, the seats, every active breaker by key, and the `seq`
 * of the last event all that reflects. A snapshot replaces it whole; an event
 * with a greater `seq` replaces or removes one breaker (it carries the whole
 * Breaker), the store's state, or one seat's usage windows; a decision adds
 * to its seat's token tally. The monitor keeps no rule of its own about
 * what a breaker means: ./derive-view.ts projects chains with the shared rules.
 * Pure; a change returns a new model, so views recompute only when it changed.
 */
export interface DaemonModel {
  readonly seq: number;
  readonly influence: InfluenceInfo;
  /** each route's configured chain (entries with `index` and `weight`) */
  readonly routes: readonly RouteRef[];
  readonly seats: readonly SnapshotSeat[];
  readonly breakers: ReadonlyMap<string, Breaker>;
  /**
   * breaker key → the daemon (`hostname:pid`) whose transition last changed
   * it, from breaker events' `origin`. A snapshot does
   * not say it: breakers known only from a snapshot have none.
   */
  readonly origins: ReadonlyMap<string, string>;
  readonly store: StoreInfo;
}

/** The model a snapshot says; origins learned before it are kept for the breakers it still holds. */
export function modelOf(snapshot: Snapshot, before: DaemonModel | null = null): DaemonModel {
  const breakers = new Map(snapshot.breakers.map((b) => [b.key, b]));
  const origins = new Map([...(before?.origins ?? [])].filter(([key]) => breakers.has(key)));
  return {
    seq: snapshot.seq,
    influence: snapshot.influence,
    routes: snapshot.routes.map(routeRefOf),
    seats: snapshot.seats,
    breakers,
    origins,
    store: snapshot.store,
  };
}

/**
 * A decision adds the tokens it reported to its seat's tally (a seat the
 * daemon sends no tally for stays without one: unknown, not zero). One at or
 * below the model's `seq` is already counted in the snapshot's tally; one
 * without usage changes nothing, and the model comes back unchanged.
 */
export function applyDecision(model: DaemonModel, event: DecisionEvent): DaemonModel {
  const { usage, served_by: servedBy } = event;
  if (event.seq <= model.seq || usage === null || servedBy === null) return model;
  const seatId = servedBy.slice(0, servedBy.indexOf('/'));
  const seat = model.seats.find((s) => s.id === seatId);
  if (seat?.tokens === undefined) return model;
  const t = seat.tokens;
  const tokens = {
    input: t.input + (usage.input_tokens ?? 0),
    output: t.output + (usage.output_tokens ?? 0),
    cache_read: t.cache_read + (usage.cache_read_tokens ?? 0),
    cache_write: t.cache_write + (usage.cache_write_tokens ?? 0),
  };
  return { ...model, seq: event.seq, seats: model.seats.map((s) => (s === seat ? { ...s, tokens } : s)) };
}

/** An event at or below the model's `seq` is already in it: the model comes back unchanged. */
export function applyEvent(model: DaemonModel, event: BreakerEvent | StoreEvent | UsageEvent): DaemonModel {
  if (event.seq <= model.seq) return model;
  if (event.type === 'store') return { ...model, seq: event.seq, store: event.store };
  if (event.type === 'usage') {
    const seats = model.seats.map((s) => (s.id === event.seat ? { ...s, usage: event.usage } : s));
    return { ...model, seq: event.seq, seats };
  }
  const breakers = new Map(model.breakers);
  applyBreakerEvent(breakers, event);
  return { ...model, seq: event.seq, breakers, origins: originsAfter(model.origins, event) };
}

/** A count event (`refused`, `skipped`) is no transition: it leaves where the last one came from. */
function originsAfter(origins: ReadonlyMap<string, string>, event: BreakerEvent): ReadonlyMap<string, string> {
  if (event.action === 'refused' || event.action === 'skipped') return origins;
  const next = new Map(origins);
  if (event.breaker === null || typeof event.origin !== 'string') next.delete(event.key);
  else next.set(event.key, event.origin);
  return next;
}
