import type { TripReason } from '@routeplane/shared';
import type { DeadlineKind, TargetPhase } from '../../store/derive-view.js';
import { formatCountdown } from '../format.js';
import type { Tone } from '../theme.js';

/**
 * How a breaker state reads: a glyph for the phase, a word for the reason,
 * a tone for colour. Colour is never the only carrier (NO_COLOR, colour
 * blindness): the glyph and the words say the same thing.
 */
export const PHASE_GLYPH: Record<TargetPhase, string> = {
  healthy: '●',
  tripped: '✗',
  probe_ready: '◌',
  probing: '◐',
};

export const REASON_WORD: Record<TripReason, string> = {
  credit: 'credit',
  rate_limit: 'rate-limit',
  model_errors: 'errors',
};

export function phaseTone(phase: TargetPhase, reasons: readonly TripReason[]): Tone {
  switch (phase) {
    case 'healthy':
      return 'ok';
    case 'tripped':
      // A rate limit heals by itself; credit and error trips need a probe.
      return reasons.every((r) => r === 'rate_limit') ? 'warn' : 'bad';
    case 'probe_ready':
    case 'probing':
      return 'probe';
  }
}

/** `healthy`, or the reasons it is held back: `credit`, `credit+rate-limit`. */
export function reasonWords(phase: TargetPhase, reasons: readonly TripReason[]): string {
  if (phase === 'healthy' || reasons.length === 0) return 'healthy';
  return reasons.map((r) => REASON_WORD[r]).join('+');
}

/** What happens next, in words: `probe in 42s`, `ends in 3m05s`, `probe ready`, `probing`. */
export function phaseDetail(phase: TargetPhase, deadline: number | null, kind: DeadlineKind | null, now: number): string {
  switch (phase) {
    case 'healthy':
      return '';
    case 'tripped':
      if (deadline === null) return 'tripped';
      return `${kind === 'rate_limit' ? 'ends in' : 'probe in'} ${formatCountdown(deadline, now)}`;
    case 'probe_ready':
      return 'probe ready';
    case 'probing':
      return 'probing';
  }
}
