import { type BreakerKind, type BreakerPhase, formatDuration, isProbed, type TargetState, type TripReason } from '@routeplane/shared';
import type { Tone } from '../../../output/segment.js';

/**
 * How a state reads: a glyph for it, a word for each reason, a tone for
 * colour. Colour is never the only carrier (NO_COLOR, colour blindness): the
 * glyph and the words say the same thing. Presentation only: what a state
 * is comes from the daemon's breakers through the shared rules.
 */
export const STATE_GLYPH: Record<TargetState, string> = {
  healthy: '●',
  tripped: '✗',
  probe_ready: '◌',
  probing: '◐',
  drained: '○',
};

/** A breaker's phase as the target state it makes. */
export const PHASE_STATE: Record<BreakerPhase, TargetState> = {
  open: 'tripped',
  probe_ready: 'probe_ready',
  probing: 'probing',
};

export const REASON_WORD: Record<TripReason, string> = {
  credit: 'credit',
  rate_limit: 'rate-limit',
  model_errors: 'errors',
  quota: 'quota',
  key_rejected: 'key rejected',
  provider_errors: 'provider errors',
};

/** A held-back state whose every reason is a rate limit heals by itself: it reads as a warning, not a failure. */
function onlyRateLimited(reasons: readonly TripReason[]): boolean {
  return reasons.length > 0 && reasons.every((r) => r === 'rate_limit');
}

export function stateTone(state: TargetState, reasons: readonly TripReason[]): Tone {
  switch (state) {
    case 'healthy':
      return 'ok';
    case 'tripped':
      return onlyRateLimited(reasons) ? 'warn' : 'bad';
    case 'probe_ready':
    case 'probing':
      return 'probe';
    case 'drained':
      return 'muted';
  }
}

/** `healthy`, `drained`, or the reasons it is held back: `credit`, `credit+rate-limit`. */
export function reasonWords(state: TargetState, reasons: readonly TripReason[]): string {
  if (state === 'healthy' || state === 'drained' || reasons.length === 0) return state === 'drained' ? 'drained' : 'healthy';
  return reasons.map((r) => REASON_WORD[r]).join('+');
}

/**
 * What a countdown runs to: a probe (`probe in 41s`), the end of a rate limit
 * (`ends in 3s`: it needs no probe) or a provider's stated quota reset
 * (`resets in 2h14m`): three different things, three different words.
 */
export type CountdownKind = 'probe' | 'ends' | 'resets';

/** The time a countdown is read at, and whether it stopped (the connection is lost: what it shows is stale). */
export interface CountdownClock {
  readonly now: number;
  readonly stale: boolean;
}

const COUNTDOWN_WORD: Record<CountdownKind, string> = { probe: 'probe in', ends: 'ends in', resets: 'resets in' };

/** A countdown in words: `probe in 42s`, `ends in 3m05s`, `resets in 2h14m`; stopped ones say `(stale)`. */
export function countdown(until: number, clock: CountdownClock, kind: CountdownKind): string {
  return staleMark(`${COUNTDOWN_WORD[kind]} ${formatDuration(until - clock.now)}`, clock);
}

export function staleMark(text: string, clock: CountdownClock): string {
  return clock.stale ? `${text} (stale)` : text;
}

/** What a tripped chain entry waits for, from the reasons the daemon gave it. */
function entryCountdownKind(reasons: readonly TripReason[]): CountdownKind {
  if (onlyRateLimited(reasons)) return 'ends';
  return reasons.length > 0 && reasons.every((r) => r === 'quota' || r === 'rate_limit') ? 'resets' : 'probe';
}

/** The countdown kind of one breaker's `until`. */
export function breakerCountdownKind(kind: BreakerKind): CountdownKind {
  if (!isProbed(kind)) return 'ends';
  return kind === 'quota' ? 'resets' : 'probe';
}

/** What happens next for a chain entry: `probe in 42s`, `ends in 3m05s`, `resets in 2h14m`, `probe ready`, `probing`, or nothing. */
export function stateDetail(state: TargetState, reasons: readonly TripReason[], until: number | null, clock: CountdownClock): string {
  switch (state) {
    case 'healthy':
    case 'drained':
      return '';
    case 'tripped':
      return until === null ? 'tripped' : countdown(until, clock, entryCountdownKind(reasons));
    case 'probe_ready':
      return 'probe ready';
    case 'probing':
      return 'probing';
  }
}

/** The same for one breaker: its phase, and its kind for the countdown's word. */
export function breakerDetail(kind: BreakerKind, phase: BreakerPhase, until: number | null, clock: CountdownClock): string {
  if (phase !== 'open') return stateDetail(PHASE_STATE[phase], [], until, clock);
  return until === null ? 'tripped' : countdown(until, clock, breakerCountdownKind(kind));
}
