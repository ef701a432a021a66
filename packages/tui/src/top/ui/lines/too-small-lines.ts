import { seg } from '../../../output/segment.js';
import { clipLine, line, type Line } from './line.js';

/** Below the minimum size we say so, like btop, rather than draw a broken layout. */
export const MIN_COLUMNS = 80;
export const MIN_ROWS = 24;

export function tooSmallLines(columns: number, rows: number): Line[] {
  return [
    line([seg('Terminal too small', 'bad')]),
    line([seg(`${columns}×${rows}, `), seg(`needs ${MIN_COLUMNS}×${MIN_ROWS}`, 'title')]),
    line([seg('enlarge it, or press '), seg('q', 'key'), seg(' to quit')]),
  ].map((l) => clipLine(l, columns));
}
