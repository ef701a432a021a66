import { seg } from '../../../output/segment.js';
import type { SessionView } from '../../store/session-list.js';
import { titleLine } from '../lines/line.js';
import { FAILED_OVER_MARK, sessionLines } from '../lines/session-lines.js';
import { Lines } from './Lines.js';

export interface SessionsPanelProps {
  sessions: readonly SessionView[];
  /** the time `last seen` is counted from */
  now: number;
  width: number;
  height: number;
  greyed: boolean;
}

/** In place of the seats (key `S`): each session of the last 10 minutes and where its last request went. */
export function SessionsPanel({ sessions, now, width, height, greyed }: SessionsPanelProps) {
  const all = sessionLines(sessions, { width, now });
  const shown = all.slice(0, height);
  const range = sessions.length > height ? [seg(`${shown.length} of ${sessions.length}`, 'muted')] : [];
  const title = titleLine('SESSIONS', [seg(`last 10 min · ${FAILED_OVER_MARK} last request failed over`, 'muted')], width, range);
  return <Lines lines={[title, ...shown]} height={height + 1} greyed={greyed} />;
}
