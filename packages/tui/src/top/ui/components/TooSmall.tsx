import { tooSmallLines } from '../lines/too-small-lines.js';
import { Lines } from './Lines.js';

/** Shown instead of a broken layout; `q` still quits. */
export function TooSmall({ columns, rows }: { columns: number; rows: number }) {
  return <Lines lines={tooSmallLines(columns, rows)} />;
}
