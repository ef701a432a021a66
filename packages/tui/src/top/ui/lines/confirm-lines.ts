import { tripReason } from '@routeplane/shared';
import { seg } from '../../../output/segment.js';
import type { SeatView } from '../../store/derive-view.js';
import { type ConfirmAction, confirmQuestion, confirmVerb } from '../actions.js';
import { clipLine, line, titleLine, type Line } from './line.js';
import { REASON_WORD } from './state-words.js';

/**
 * The confirmation before a reset or a probe. It names exactly what it acts
 * on and defaults to No: only `y` acts; Enter, `n`, Esc and `q` change nothing.
 */
export { confirmQuestion };

/** A target held back by its seat is not freed by a target reset: say so before, not after. */
export function seatWideNote(action: ConfirmAction, seats: readonly SeatView[]): string | null {
  const target = action.kind === 'probe' ? action.target : action.request.scope === 'target' ? action.request : null;
  if (target === null || target.model === undefined) return null;
  const seatWide = seats.find((s) => s.id === target.seat)?.breakers.filter((b) => b.scope === 'seat') ?? [];
  if (seatWide.length === 0) return null;
  const words = [...new Set(seatWide.map((b) => REASON_WORD[tripReason(b.kind, b.scope)]))];
  return `note: ${words.join(' and ')} is seat-wide; select seat ${target.seat} for it`;
}

const PROBE_NOTE = 'the next request tries it; a failure trips it again with the cooldown doubled';

export function confirmLines(action: ConfirmAction, seats: readonly SeatView[], width: number): Line[] {
  const note = seatWideNote(action, seats);
  return [
    titleLine('CONFIRM', [], width),
    clipLine(line([seg(' '), seg(confirmQuestion(action), 'title')]), width),
    ...(note ? [clipLine(line([seg(' '), seg(note, 'warn')]), width)] : []),
    ...(action.kind === 'probe' ? [clipLine(line([seg(' '), seg(PROBE_NOTE, 'muted')]), width)] : []),
    clipLine(
      line([
        seg(' '),
        seg('y', 'key'),
        seg(` ${confirmVerb(action)}   `),
        seg('n', 'key'),
        seg(' / '),
        seg('Enter', 'key'),
        seg(' / '),
        seg('Esc', 'key'),
        seg(' no (default)'),
      ]),
      width,
    ),
  ];
}
