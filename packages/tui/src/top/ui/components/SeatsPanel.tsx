import { seg } from '../../../output/segment.js';
import { windowStart } from '../layout.js';
import { titleLine } from '../lines/line.js';
import { seatLines, type SeatRow } from '../lines/seat-lines.js';
import { Lines } from './Lines.js';

export interface SeatsPanelProps {
  rows: readonly SeatRow[];
  /** the time gauges' resets are read at */
  now: number;
  width: number;
  height: number;
  selectedKey: string | null;
  greyed: boolean;
}

/** Each seat: its breakers, its last 2 minutes of attempts, its binding usage window. */
export function SeatsPanel({ rows, now, width, height, selectedKey, greyed }: SeatsPanelProps) {
  const all = seatLines(rows, { width, selectedKey, now });
  const focus = all.findIndex((l) => l.key === selectedKey);
  const start = windowStart(all.length, height, focus === -1 ? null : focus);
  const shown = all.slice(start, start + height);
  const range = all.length > height ? [seg(`${start + 1}-${start + shown.length} of ${all.length}`, 'muted')] : [];
  const title = titleLine('SEATS', [seg('breakers · last 2 min · usage', 'muted')], width, range);
  return <Lines lines={[title, ...shown]} height={height + 1} greyed={greyed} />;
}
