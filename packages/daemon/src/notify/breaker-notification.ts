import { type BreakerEvent, formatDuration, type SeatUsage, type Signal, signalHeaderName, signalWords } from '@routeplane/shared';
import type { Notification, NotifyFacts } from './notification.js';

/**
 * A breaker change as a notification: a seat or target tripped for credit,
 * quota or a rejected key (where its requests go now, when it may be tried
 * again), its recovery by a success or a probe, and an avoid seat's trip for
 * extra usage. Null for every other change.
 */
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

function subjectOf(seat: string, model: string | null): string {
  return model === null ? `seat ${seat}` : `${seat}/${model}`;
}

export function breakerNotification(event: BreakerEvent, facts: NotifyFacts): Notification | null {
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
