import { tripReason } from '@routeplane/shared';
import { seg } from '../../../output/segment.js';
import type { ResetRequest } from '../../source/reset-request.js';
import type { SeatView } from '../../store/derive-view.js';
import { clipLine, line, titleLine, type Line } from './line.js';
import { REASON_WORD } from './state-words.js';

/**
 * The reset confirmation. It names exactly what will be reset and defaults
 * to No: only `y` resets; Enter, `n` and Esc keep the breakers.
 */
export function confirmQuestion(request: ResetRequest): string {
  switch (request.scope) {
    case 'all':
      return 'Reset EVERY breaker on every seat?';
    case 'seat':
      return `Reset seat ${request.seat} (every breaker on the seat and on its models)?`;
    case 'target':
      return `Reset target ${request.seat}/${request.model} (the breakers on this model)?`;
  }
}

/** A target held back by its seat is not freed by a target reset: say so before, not after. */
export function seatWideNote(request: ResetRequest, seats: readonly SeatView[]): string | null {
  if (request.scope !== 'target') return null;
  const seatWide = seats.find((s) => s.id === request.seat)?.breakers.filter((b) => b.scope === 'seat') ?? [];
  if (seatWide.length === 0) return null;
  const words = [...new Set(seatWide.map((b) => REASON_WORD[tripReason(b.kind, b.scope)]))];
  return `note: ${words.join(' and ')} is seat-wide; select seat ${request.seat} to clear it`;
}

export function confirmLines(request: ResetRequest, seats: readonly SeatView[], width: number): Line[] {
  const note = seatWideNote(request, seats);
  return [
    titleLine('CONFIRM', [], width),
    clipLine(line([seg(' '), seg(confirmQuestion(request), 'title')]), width),
    ...(note ? [clipLine(line([seg(' '), seg(note, 'warn')]), width)] : []),
    clipLine(
      line([
        seg(' '),
        seg('y', 'key'),
        seg(' yes, reset   '),
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
