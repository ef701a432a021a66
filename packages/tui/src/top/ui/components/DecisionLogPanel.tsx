import { type Segment, seg } from '../../../output/segment.js';
import type { DecisionEntry } from '../../store/monitor-state.js';
import { decisionLines, matchesFilter } from '../lines/decision-lines.js';
import { line, titleLine } from '../lines/line.js';
import { truncate } from '../../../output/text.js';
import { Lines } from './Lines.js';

export interface DecisionLogPanelProps {
  decisions: readonly DecisionEntry[];
  received: number;
  filter: string;
  pausedAt: number | null;
  width: number;
  height: number;
  greyed: boolean;
}

/**
 * The tail of decisions, newest at the bottom. Follows by default; paused,
 * it holds still (new decisions are counted, not shown) under a PAUSED badge.
 */
export function DecisionLogPanel({ decisions, received, filter, pausedAt, width, height, greyed }: DecisionLogPanelProps) {
  const upToPause = pausedAt === null ? decisions : decisions.filter((d) => d.n <= pausedAt);
  const matching = filter === '' ? upToPause : upToPause.filter((d) => matchesFilter(d.event, filter));
  const tail = matching.slice(Math.max(0, matching.length - height));
  const note: Segment[] =
    pausedAt === null ? [seg('following', 'muted')] : [seg(' PAUSED ', 'badge'), seg(` ${received - pausedAt} new`, 'muted')];
  const right: Segment[] =
    filter === '' ? [] : [seg('filter ', 'muted'), seg(`"${truncate(filter, 20)}"`, 'title'), seg(` ${matching.length} shown`, 'muted')];
  const title = titleLine('DECISIONS', note, width, right);
  const empty =
    decisions.length === 0 ? 'waiting for requests…' : matching.length === 0 ? `no decision matches "${truncate(filter, 30)}"` : null;
  const body = empty ? [line([seg('  '), seg(empty, 'muted')])] : decisionLines(tail, { width });
  return <Lines lines={[title, ...body]} height={height + 1} greyed={greyed} />;
}
