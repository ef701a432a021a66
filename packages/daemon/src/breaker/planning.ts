import { orderChain, type TargetStateView, targetState, usableInBackground } from '@routeplane/shared';
import type { EngineState } from './engine-state.js';
import type { Held } from './table.js';
import type { Claim, HeldBack, Plan, PlanEntry, PlannedTarget, PlanOptions } from './types.js';

/**
 * A request's chain, fixed when it starts: each entry's state from the
 * shared rule, the breaker's ordering, and the probe claims of probe-ready
 * targets (one request per breaker). Background work gets healthy targets
 * only, never a probe, never fail-open.
 */

const NO_CLAIMS: readonly Claim[] = Object.freeze([]);

/** The live breakers covering one entry; empty (and shared) when none does. */
function coveringOf(s: EngineState, entry: PlanEntry): Held[] {
  const found: Held[] = [];
  for (const key of entry.keys.covering) {
    const held = s.table.get(key);
    if (held !== undefined) found.push(held);
  }
  return found;
}

export function stateOf(covering: readonly Held[]): TargetStateView {
  return targetState(covering.map((h) => h.b));
}

export function plan(s: EngineState, entries: readonly PlanEntry[], options: PlanOptions = {}): Plan | Promise<Plan> {
  const now = s.clock.now();
  const lane = options.lane ?? 'foreground';
  const pinnedIndex = options.pinnedIndex ?? null;
  // The fast path: nothing is tripped anywhere, the base order stands.
  if (s.table.size === 0 && (lane === 'foreground' || options.reserveUntil === undefined)) {
    return healthyPlan(entries, now, lane, pinnedIndex);
  }

  const states: Array<{ entry: PlanEntry; covering: Held[]; view: TargetStateView; reserve: number | null }> = [];
  for (const entry of entries) {
    const covering = coveringOf(s, entry);
    const reserve = lane === 'background' ? (options.reserveUntil?.(entry.keys.seat) ?? null) : null;
    states.push({ entry, covering, view: stateOf(covering), reserve });
  }

  if (lane === 'background') {
    const usable = states.filter((x) => usableInBackground(x.view.state) && x.reserve === null);
    if (usable.length === 0) return heldBackPlan(entries, states, now);
    // a pin to a target background work may use goes first, as in foreground
    const pinnedFirst = usable.findIndex((x) => x.entry.index === pinnedIndex);
    if (pinnedFirst > 0) usable.unshift(...usable.splice(pinnedFirst, 1));
    return {
      entries,
      targets: usable.map((x) => planned(x.entry, 'healthy', null, null, x.entry.index === pinnedIndex)),
      failOpen: false,
      claims: NO_CLAIMS,
      plannedAt: now,
      lane,
      heldBack: null,
      passedOver: states.filter((x) => !usable.includes(x)).map((x) => passedOver(x, now)),
    };
  }

  const claims: Claim[] = [];
  const targets: PlannedTarget[] = [];
  for (const { entry, covering } of states) {
    const pinned = entry.index === pinnedIndex;
    // read again: an earlier entry of this chain may have just claimed a probe this one shares
    const view = stateOf(covering);
    if (view.state === 'healthy') {
      targets.push(planned(entry, 'healthy', null, null, pinned));
    } else if (view.state === 'probe_ready') {
      for (const held of covering) if (held.b.phase === 'probe_ready') claims.push(claim(s, held, entry.index, now));
      targets.push(planned(entry, 'probe', view.reasons[0] ?? null, null, pinned));
    } else {
      const left = view.until === null ? null : Math.max(0, view.until - now);
      targets.push(planned(entry, 'tripped', view.reasons[0] ?? null, left, pinned));
    }
  }
  const result = finishOrder(targets, pinnedIndex);
  const made: Plan = { entries, targets: result.ordered, failOpen: result.failOpen, claims, plannedAt: now, lane, heldBack: null };
  return claims.length === 0 ? made : confirmClaims(s, made);
}

/** Orders by health, then puts a pinned entry first: a pin is an explicit order the breaker never overrides. */
function finishOrder(targets: PlannedTarget[], pinnedIndex: number | null): { ordered: PlannedTarget[]; failOpen: boolean } {
  const { ordered, failOpen } = orderChain(targets, (t) => t.state !== 'tripped');
  if (pinnedIndex === null) return { ordered, failOpen };
  const at = ordered.findIndex((t) => t.index === pinnedIndex);
  if (at <= 0) return { ordered, failOpen };
  const pinned = ordered[at]!;
  return { ordered: [pinned, ...ordered.slice(0, at), ...ordered.slice(at + 1)], failOpen };
}

function planned(
  entry: PlanEntry,
  state: PlannedTarget['state'],
  reason: PlannedTarget['reason'],
  leftMs: number | null,
  pinned: boolean,
): PlannedTarget {
  return { seat: entry.keys.seat, model: entry.keys.model, index: entry.index, keys: entry.keys, state, reason, leftMs, pinned };
}

function healthyPlan(entries: readonly PlanEntry[], now: number, lane: Plan['lane'], pinnedIndex: number | null): Plan {
  const targets = entries.map((e) => planned(e, 'healthy', null, null, e.index === pinnedIndex));
  const ordered = pinnedIndex === null ? targets : finishOrder(targets, pinnedIndex).ordered;
  return { entries, targets: ordered, failOpen: false, claims: NO_CLAIMS, plannedAt: now, lane, heldBack: null };
}

/**
 * A target background work goes past without trying it, as the decision
 * shows it: its breaker's reason and time left, or the seat's reserve until
 * the window resets.
 */
function passedOver(x: { entry: PlanEntry; view: TargetStateView; reserve: number | null }, now: number): PlannedTarget {
  if (x.view.state === 'healthy')
    return planned(x.entry, 'tripped', 'reserve', x.reserve === null ? null : Math.max(0, x.reserve - now), false);
  const left = x.view.state === 'probing' || x.view.until === null ? null : Math.max(0, x.view.until - now);
  return planned(x.entry, 'tripped', x.view.reasons[0] ?? null, left, false);
}

/** Background work found nothing routable: say why for each target, and route nothing. */
function heldBackPlan(
  entries: readonly PlanEntry[],
  states: ReadonlyArray<{ entry: PlanEntry; covering: Held[]; view: TargetStateView; reserve: number | null }>,
  now: number,
): Plan {
  const heldBack: HeldBack[] = states.map(({ entry, covering, view, reserve }) => {
    const { seat, model } = entry.keys;
    if (view.state === 'healthy') return { seat, model, reason: 'reserve', until: reserve, reserveUntil: null, routableAt: reserve };
    const until = routableAgainAt(covering, now);
    // a tripped seat above its reserve line is routable for background work only once both have passed
    const routableAt = until === null ? reserve : reserve === null ? until : Math.max(until, reserve);
    return { seat, model, reason: view.reasons[0] ?? 'model_errors', until, reserveUntil: reserve, routableAt };
  });
  const shown = states.map((x) => passedOver(x, now));
  return { entries, targets: [], failOpen: false, claims: NO_CLAIMS, plannedAt: now, lane: 'background', heldBack, passedOver: shown };
}

/**
 * When a held-back target may be routable for background work again: the
 * last of its breakers' `until`s (a probe-ready one once foreground work has
 * probed it — its own `until` has passed, so `now`).
 */
function routableAgainAt(covering: readonly Held[], now: number): number | null {
  let at: number | null = null;
  for (const { b } of covering) {
    const t = b.until === null ? null : Math.max(b.until, now);
    if (t !== null && (at === null || t > at)) at = t;
  }
  return at;
}

/** Takes the probe of one probe-ready breaker for this request; announced once the store confirms it. */
function claim(s: EngineState, held: Held, index: number, now: number): Claim {
  const claimId = s.nextClaimId++;
  held.claimId = claimId;
  held.b.phase = 'probing';
  held.b.claimed_at = now;
  return { key: held.b.key, index, claimId, resolved: false };
}

/**
 * The store confirms each claim cluster-wide (memory: at once). A claim it
 * refuses — another daemon holds that probe — is given up, and the target
 * counts as tripped for this request: a probe may be delayed, never doubled.
 */
function confirmClaims(s: EngineState, made: Plan): Plan | Promise<Plan> {
  const answers = made.claims.map((c) => s.store.claim(c.key, claimToken(s, c), made.plannedAt));
  if (answers.every((a) => typeof a === 'boolean')) return settleClaims(s, made, answers as boolean[]);
  return Promise.all(answers).then((all) => settleClaims(s, made, all));
}

export function claimToken(s: EngineState, c: Claim): string {
  return `${s.origin}#${c.claimId}`;
}

function settleClaims(s: EngineState, made: Plan, answers: readonly boolean[]): Plan {
  const refused = new Set<number>();
  const kept: Claim[] = [];
  made.claims.forEach((c, i) => {
    const held = s.table.get(c.key);
    const ours = held !== undefined && held.claimId === c.claimId && held.b.phase === 'probing';
    if (answers[i] && ours) {
      kept.push(c);
      s.table.announce(held, 'probe_claimed', 'probe claimed');
      return;
    }
    refused.add(c.index);
    // another daemon holds this probe (or the breaker moved on while we asked): our claim never happened
    if (ours) {
      held.b.claimed_at = null;
      held.b.phase = 'probe_ready';
    }
  });
  if (refused.size === 0) return made;
  const byIndex = new Map(made.targets.map((t) => [t.index, t]));
  const inBaseOrder: PlannedTarget[] = [];
  for (const entry of made.entries) {
    const t = byIndex.get(entry.index);
    if (t === undefined) continue;
    const lost = refused.has(t.index) && t.state === 'probe' && !kept.some((c) => c.index === t.index);
    inBaseOrder.push(lost ? { ...t, state: 'tripped' } : t);
  }
  const pinnedIndex = inBaseOrder.find((t) => t.pinned)?.index ?? null;
  const { ordered, failOpen } = finishOrder(inBaseOrder, pinnedIndex);
  return { ...made, targets: ordered, failOpen, claims: kept };
}

/** The request is over: probe claims it never resolved are released. */
export function finish(s: EngineState, p: Plan): void {
  for (const c of p.claims) {
    if (c.resolved) continue;
    c.resolved = true;
    releaseClaim(s, c, 'probe not reached');
  }
}

export function releaseClaim(s: EngineState, c: Claim, reason: string): void {
  const held = s.table.get(c.key);
  if (held === undefined || held.claimId !== c.claimId || held.b.phase !== 'probing') return;
  held.b.phase = 'probe_ready';
  held.b.claimed_at = null;
  s.table.announce(held, 'probe_ready', reason);
  s.store.release(c.key, claimToken(s, c));
}

/** A background request was skipped (503): every breaker it stood behind counts it. */
export function countSkipped(s: EngineState, p: Plan): void {
  if (p.heldBack === null) return;
  const now = s.clock.now();
  const seen = new Set<string>();
  for (const entry of p.entries) {
    for (const held of coveringOf(s, entry)) {
      if (seen.has(held.b.key)) continue;
      seen.add(held.b.key);
      held.b.skipped_count++;
      s.table.counted(held, 'skipped', now);
    }
  }
}

/**
 * The chain as this request would see it, without claiming anything: for a
 * request refused before it is routed (a scope, pin or drain refusal), whose
 * decision still explains the chain. A probe-ready target is shown tripped
 * with nothing left to wait: no probe goes to it from here.
 */
export function preview(s: EngineState, entries: readonly PlanEntry[], pinnedIndex: number | null): PlannedTarget[] {
  const now = s.clock.now();
  const targets = entries.map((entry) => {
    const pinned = entry.index === pinnedIndex;
    const view = stateOf(coveringOf(s, entry));
    if (view.state === 'healthy') return planned(entry, 'healthy', null, null, pinned);
    const left = view.state === 'tripped' && view.until !== null ? Math.max(0, view.until - now) : 0;
    return planned(entry, 'tripped', view.reasons[0] ?? null, view.state === 'probing' ? null : left, pinned);
  });
  return finishOrder(targets, pinnedIndex).ordered;
}
