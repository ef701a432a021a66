import { seg } from '../../../output/segment.js';
import { windowStart } from '../layout.js';
import { titleLine } from '../lines/line.js';
import { seatLines, type SeatRow } from '../lines/seat-lines.js';
import { Lines } from './Lines.js';

export interface SeatsPanelProps {
  rows: readonly SeatRow[];
  width: number;
  height: number;
  selectedKey: string | null;
  greyed: boolean;
}

/** Each seat's breakers (credit, rate limit, per-model) with their refused attempts. */
export function SeatsPanel({ rows, width, height, selectedKey, greyed }: SeatsPanelProps) {
  const all = seatLines(rows, { width, selectedKey });
  const focus = all.findIndex((l) => l.key === selectedKey);
  const start = windowStart(all.length, height, focus === -1 ? null : focus);
  const shown = all.slice(start, start + height);
  const range = all.length > height ? [seg(`${start + 1}-${start + shown.length} of ${all.length}`, 'muted')] : [];
  const title = titleLine('SEATS', [seg('breakers and refused attempts', 'muted')], width, range);
  return <Lines lines={[title, ...shown]} height={height + 1} greyed={greyed} />;
}
