import { type Segment, seg } from '../../../output/segment.js';
import { truncate } from '../../../output/text.js';
import type { DecisionEntry } from '../../store/monitor-state.js';
import { decisionLines } from '../lines/decision-lines.js';
import { line, titleLine } from '../lines/line.js';
import { type LogView, logWindow } from '../log-view.js';
import { Lines } from './Lines.js';

export interface DecisionLogPanelProps {
  /** the decisions the log lists (filtered), oldest first */
  decisions: readonly DecisionEntry[];
  /** before the filter: is there any decision at all */
  total: number;
  filter: string;
  view: LogView;
  /** the log has the focus: its selected line is marked */
  focused: boolean;
  /** what an empty log says */
  emptyText?: string;
  width: number;
  height: number;
  greyed: boolean;
}

/**
 * The decisions, newest at the bottom. Follows by default; held still (`p`,
 * or by moving in it), it keeps showing the same decisions under a PAUSED
 * badge and counts the new ones below.
 */
export function DecisionLogPanel({
  decisions,
  total,
  filter,
  view,
  focused,
  emptyText = 'waiting for requests…',
  width,
  height,
  greyed,
}: DecisionLogPanelProps) {
  const ids = decisions.map((d) => d.id);
  const window = logWindow(ids, view, height);
  const shown = decisions.slice(window.start, window.end);
  const note: Segment[] = view.follow
    ? [seg('following', 'muted')]
    : [seg(' PAUSED ', 'badge'), seg(` ${window.below} new`, 'muted'), seg(' · p or G follows', 'muted')];
  if (focused) note.push(seg(' · Enter explains', 'muted'));
  const right: Segment[] =
    filter === '' ? [] : [seg('filter ', 'muted'), seg(`"${truncate(filter, 20)}"`, 'title'), seg(` ${decisions.length} shown`, 'muted')];
  const title = titleLine('DECISIONS', note, width, right);
  const empty = total === 0 ? emptyText : decisions.length === 0 ? `no decision matches "${truncate(filter, 30)}"` : null;
  const selectedId = focused ? (ids[window.selected] ?? null) : null;
  const body = empty ? [line([seg('  '), seg(empty, 'muted')])] : decisionLines(shown, { width, selectedId });
  return <Lines lines={[title, ...body]} height={height + 1} greyed={greyed} />;
}
