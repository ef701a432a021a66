import { seg } from '../../../output/segment.js';
import type { RouteView } from '../../store/derive-view.js';
import type { RouteShares } from '../../store/session-shares.js';
import { windowStart } from '../layout.js';
import { chainLines } from '../lines/chain-lines.js';
import { titleLine } from '../lines/line.js';
import type { CountdownClock } from '../lines/state-words.js';
import { Lines } from './Lines.js';

export interface ChainsPanelProps {
  routes: readonly RouteView[];
  clock: CountdownClock;
  shares: RouteShares;
  width: number;
  /** rows for targets, not counting the title */
  height: number;
  /** null when the upper panes do not have the focus */
  selectedKey: string | null;
  greyed: boolean;
}

/** Each route's chain in the order a request starting now would try it. */
export function ChainsPanel({ routes, clock, shares, width, height, selectedKey, greyed }: ChainsPanelProps) {
  const all = chainLines(routes, { width, clock, selectedKey, shares });
  const focus = all.findIndex((l) => l.key === selectedKey);
  const start = windowStart(all.length, height, focus === -1 ? null : focus);
  const shown = all.slice(start, start + height);
  const range = all.length > height ? [seg(`${start + 1}-${start + shown.length} of ${all.length}`, 'muted')] : [];
  const title = titleLine('CHAINS', [seg('order a request tries now', 'muted')], width, range);
  const body = all.length === 0 ? [{ segments: [seg('  no routes', 'muted')] }] : shown;
  return <Lines lines={[title, ...body]} height={height + 1} greyed={greyed} />;
}
