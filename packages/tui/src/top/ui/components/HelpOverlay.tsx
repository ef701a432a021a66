import { seg } from '../../../output/segment.js';
import { helpLines } from '../lines/help-lines.js';
import { titleLine } from '../lines/line.js';
import { Lines } from './Lines.js';

/** The `?` overlay: every key of the keymap and every word explained, scrolled with ↑↓. Keys go to it first (App routes by mode). */
export function HelpOverlay({ width, height, scroll }: { width: number; height: number; scroll: number }) {
  const all = helpLines(width);
  const rows = Math.max(1, height - 1);
  const start = Math.min(scroll, helpScrollMax(width, height));
  const shown = all.slice(start, start + rows);
  const range = all.length > rows ? [seg(`${start + 1}-${start + shown.length} of ${all.length} · ↑↓ scroll`, 'muted')] : [];
  return <Lines lines={[titleLine('HELP', [seg('every key and word', 'muted')], width, range), ...shown]} height={height} />;
}

export function helpScrollMax(width: number, height: number): number {
  return Math.max(0, helpLines(width).length - Math.max(1, height - 1));
}
