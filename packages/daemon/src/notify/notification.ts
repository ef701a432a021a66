import {
  type BreakerEvent,
  type DaemonEvent,
  type DecisionEvent,
  formatDuration,
  type NotifyKind,
  type SeatUsage,
  type Signal,
  signalHeaderName,
  signalWords,
  type StoreEvent,
  type UsageEvent,
} from '@routeplane/shared';

/**
 * Which daemon event is which notification, and its text — pure: an event
 * and a few facts in, a notification (or none) out. The text reads like
 * `serve`'s transition lines:
 *
 *   seat max-1 spent its 5h window (quota) — resets 16:00 (in 2h14m); requests go to max-2
 *   seat api-1 ran out of credit (400 credit balance is too low) — probe in 1m00s; requests go to max-2
 *   seat max-1 is back: quota cleared (probe succeeded)
 *   route sonnet failed open: every target is held back, so requests go to them in configured order
 *
 * Only what a person should hear of while nobody watches `top`: a seat or
 * target tripped for credit, quota or a rejected key, and its recovery by a
 * success or a probe (a reset or a reload is somebody's own doing); a
 * request that failed open; a seat that began billing extra usage; the
 * shared store going degraded or coming back. Rate limits and model errors
 * heal by themselves and never notify.
 */
export interface Notification {
  kind: NotifyKind;
  /** one line, never a credential */
  text: string;
  seat: string | null;
  model: string | null;
  route: string | null;
  /** when what tripped may be tried again (probe-ready time, or the quota's reset); null otherwise */
  until: number | null;
  ts: number;
}

/** What the text needs to know beyond the event. */
export interface NotifyFacts {
  /**
   * This daemon's id: a breaker change another daemon made (a shared store)
   * is that daemon's to notify, so a team with one config says each once.
   */
  readonly self: string;
  /**
   * Where the requests of the routes that use `seat` (or only `seat/model`)
   * go now: the first healthy other target of each such route, by seat (or
   * `seat/model` on the same seat); `[]` when none is healthy; null when no
   * route uses it.
   */
  goesTo(seat: string, model: string | null): string[] | null;
  /** the seat's usage windows as the provider last reported them */
  usageOf(seat: string): SeatUsage | null;
  /** a deadline as people read it: `16:00`, `Dec 6 14:00` */
  wallClock(at: number, now: number): string;
}

/** The breaker kinds that notify, by the v1 scope word every breaker event carries. */
const KIND_OF_SCOPE: Partial<Record<BreakerEvent['scope'], 'credit' | 'quota' | 'key_rejected'>> = {
  seat_credit: 'credit',
  seat_quota: 'quota',
  model_quota: 'quota',
  seat_key: 'key_rejected',
};

const KIND_WORDS = { credit: 'credit', quota: 'quota', key_rejected: 'key rejected' } as const;

/** The reason of the events a restored state file announces its breakers with. */
const RESTORED = 'restored from state file';

/** An answer billed past the plan names one of these headers (the reset it was read with is another). */
const EXTRA_USAGE_HEADER = /^anthropic-ratelimit-unified-(overage|representative-claim:\s*overage)/i;

export function notificationOf(event: DaemonEvent, facts: NotifyFacts): Notification | null {
  switch (event.type) {
    case 'breaker':
      return breakerNotification(event, facts);
    case 'decision':
      return failOpen(event);
    case 'usage':
      return null; // what a usage event says is a change, which only the rules can see (extraUsageBegan)
    case 'store':
      return null; // likewise (storeNotification)
    case 'reload':
      return null;
  }
}

function subjectOf(seat: string, model: string | null): string {
  return model === null ? `seat ${seat}` : `${seat}/${model}`;
}

function breakerNotification(event: BreakerEvent, facts: NotifyFacts): Notification | null {
  const kind = KIND_OF_SCOPE[event.scope];
  if (kind === undefined || event.seat === null || event.origin !== facts.self) return null;
  // a breaker taken back from the state file at start was news when it tripped
  if (event.reason === RESTORED) return null;
  const base = { seat: event.seat, model: event.model, route: null, ts: event.ts };
  const subject = subjectOf(event.seat, event.model);
  if (event.action === 'cleared') {
    // a rate limit ends at its deadline; these end by a success or a probe (a reset is action `reset`)
    if (event.reason === 'deadline passed') return null;
    return { kind: 'recovered', ...base, until: null, text: `${subject} is back: ${KIND_WORDS[kind]} cleared (${event.reason})` };
  }
  if (event.action !== 'tripped') return null;
  const until = event.until;
  const goes = goesWords(facts.goesTo(event.seat, event.model));
  if (kind === 'quota' && isExtraUsage(event.signal)) {
    const header = signalHeaderName(event.signal);
    const text = `${subject} began billing extra usage (${header}) — held back${untilWords(until, event.ts, facts)}${goes}`;
    return { kind: 'extra_usage', ...base, until, text };
  }
  const signal = event.signal === null ? '' : ` (${signalWords(event.signal)})`;
  switch (kind) {
    case 'credit':
      return { kind, ...base, until, text: `${subject} ran out of credit${signal} —${probeWords(until, event.ts)}${goes}` };
    case 'key_rejected':
      return { kind, ...base, until, text: `${subject}'s key was rejected${signal} —${probeWords(until, event.ts)}${goes}` };
    case 'quota': {
      const resetAt = event.breaker?.reset_at ?? until;
      const window = resetAt === null ? null : spentWindow(facts.usageOf(event.seat), resetAt);
      const what = window === null ? `ran out of quota${signal}` : `spent its ${window} window (quota)`;
      return { kind, ...base, until, text: `${subject} ${what} —${resetWords(until, event.ts, facts)}${goes}` };
    }
  }
}

function isExtraUsage(signal: Signal | null): boolean {
  return signal?.header != null && EXTRA_USAGE_HEADER.test(signal.header);
}

/** ` probe in 1m00s` */
function probeWords(until: number | null, now: number): string {
  return until === null ? ' probe when a request comes' : ` probe in ${formatDuration(until - now)}`;
}

/** ` resets 16:00 (in 2h14m)` */
function resetWords(until: number | null, now: number, facts: NotifyFacts): string {
  return until === null ? ' resets when the provider says' : ` resets ${facts.wallClock(until, now)} (in ${formatDuration(until - now)})`;
}

/** ` until 16:00 (in 2h14m)` */
function untilWords(until: number | null, now: number, facts: NotifyFacts): string {
  return until === null ? '' : ` until ${facts.wallClock(until, now)} (in ${formatDuration(until - now)})`;
}

function goesWords(to: string[] | null): string {
  if (to === null) return '';
  if (to.length === 0) return '; every other target is held back too, so requests fail open';
  return `; requests go to ${to.join(', ')}`;
}

/** The window the provider reported resetting when the quota does (within a minute): the one that was spent. */
export function spentWindow(usage: SeatUsage | null, resetAt: number): string | null {
  let best: { name: string; utilization: number } | null = null;
  for (const w of usage?.windows ?? []) {
    if (w.reset_at === null || Math.abs(w.reset_at - resetAt) > 60_000) continue;
    if (best === null || w.utilization > best.utilization) best = w;
  }
  return best?.name ?? null;
}

function failOpen(decision: DecisionEvent): Notification | null {
  if (!decision.fail_open || decision.route === null) return null;
  return {
    kind: 'fail_open',
    text: `route ${decision.route} failed open: every target is held back, so requests go to them in configured order`,
    seat: null,
    model: null,
    route: decision.route,
    until: null,
    ts: decision.ts,
  };
}

/** A seat whose answers began to be billed as extra usage: `usage.extra_usage` turned true. */
export function extraUsageNotification(event: UsageEvent): Notification {
  return {
    kind: 'extra_usage',
    text: `seat ${event.seat} began billing extra usage: its answers are paid for past the plan's window`,
    seat: event.seat,
    model: null,
    route: null,
    until: null,
    ts: event.ts,
  };
}

export function storeNotification(event: StoreEvent): Notification {
  const { kind, state, daemons } = event.store;
  const text =
    state === 'degraded'
      ? `shared store ${kind} degraded: routing goes on with this daemon's own breakers`
      : `shared store ${kind} is back: ${daemons} daemon${daemons === 1 ? '' : 's'} share it`;
  return { kind: 'store', text, seat: null, model: null, route: null, until: null, ts: event.ts };
}
