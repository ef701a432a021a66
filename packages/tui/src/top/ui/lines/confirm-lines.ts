import type { ResetRequest } from '../../source/reset-request.js';
import type { RouteView } from '../../store/derive-view.js';
import { clipLine, line, seg, titleLine, type Line } from './line.js';

/**
 * The reset confirmation. It names exactly what will be reset and defaults
 * to No: only `y` resets; Enter, `n` and Esc keep the breakers.
 */
export function confirmQuestion(request: ResetRequest): string {
  switch (request.scope) {
    case 'all':
      return 'Reset EVERY breaker on every seat?';
    case 'seat':
      return `Reset seat ${request.seat} (its credit, rate-limit and model breakers)?`;
    case 'target':
      return `Reset target ${request.seat}/${request.model} (its model breaker)?`;
  }
}

/** A target held back by its seat is not freed by a target reset: say so before, not after. */
export function seatWideNote(request: ResetRequest, routes: readonly RouteView[]): string | null {
  if (request.scope !== 'target') return null;
  const target = routes.flatMap((r) => r.chain).find((t) => t.seat === request.seat && t.model === request.model);
  const seatWide = target?.reasons.filter((r) => r === 'credit' || r === 'rate_limit') ?? [];
  if (seatWide.length === 0) return null;
  return `note: ${seatWide.map((r) => (r === 'credit' ? 'credit' : 'rate-limit')).join(' and ')} is seat-wide; select seat ${request.seat} to clear it`;
}

export function confirmLines(request: ResetRequest, routes: readonly RouteView[], width: number): Line[] {
  const note = seatWideNote(request, routes);
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
