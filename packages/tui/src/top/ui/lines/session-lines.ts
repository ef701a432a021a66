import { formatDuration } from '@routeplane/shared';
import { middleCut } from '../../../output/decision-line.js';
import { seg, type Segment } from '../../../output/segment.js';
import { fit, textWidth } from '../../../output/text.js';
import type { SessionView } from '../../store/session-list.js';
import { clipLine, line, type Line } from './line.js';

/**
 * The sessions view's rows (key `S`, in place of the seats): each session
 * of the last 10 minutes, the most recently seen first — its tag (8 hex),
 * client, agent, route, the `seat/model` its last request was served by,
 * its requests, when it was last seen, and `↪` when that last request
 * failed over:
 *
 *    3f9a2c1b claude-cli/2.1.197 sonnet max-2/claude-sonnet-4-5 12 req 12s ago   ↪
 *    0c41d9e7 codex_exec/0.169.0 gpt    openai/gpt-5             3 req 2m05s ago
 *
 * Columns are two spaces apart when that fits, else one; then the client,
 * the agent and the route are cut first, the serving target last (in its middle: a model's version is
 * at its end). The agent column is left out when no session has one.
 */
export const FAILED_OVER_MARK = '↪';

interface Column {
  readonly cells: string[];
  width: number;
  readonly min: number;
}

export function sessionLines(sessions: readonly SessionView[], options: { readonly width: number; readonly now: number }): Line[] {
  if (sessions.length === 0)
    return [clipLine(line([seg(' '), seg('no request with a session key in the last 10 minutes', 'muted')]), options.width)];
  const column = (cells: string[], min: number): Column => ({ cells, min, width: Math.max(...cells.map(textWidth)) });
  const client = column(
    sessions.map((s) => s.client ?? '—'),
    6,
  );
  const agent = sessions.some((s) => s.agent !== null)
    ? column(
        sessions.map((s) => s.agent ?? '—'),
        4,
      )
    : null;
  const route = column(
    sessions.map((s) => s.route ?? '—'),
    5,
  );
  const served = column(
    sessions.map((s) => s.servedBy ?? '—'),
    12,
  );
  const requests = sessions.map((s) => `${s.requests} req`);
  const seen = sessions.map((s) => `${formatDuration(Math.max(0, options.now - s.lastSeen), 'down')} ago`);
  const requestsW = Math.max(...requests.map(textWidth));
  const seenW = Math.max(...seen.map(textWidth));
  const marked = sessions.some((s) => s.failedOver);
  const flexible = [client, ...(agent === null ? [] : [agent]), route, served];
  // the columns with the tag, the counts and the mark, and the flexible ones, at a gap
  const total = (gap: number) =>
    1 + 8 + gap + requestsW + gap + seenW + (marked ? gap + 1 : 0) + flexible.reduce((n, c) => n + c.width + gap, 0);
  // two spaces between columns when everything fits so, else one
  const gap = total(2) <= options.width ? 2 : 1;
  // then, while too wide: the client gives way, then the agent, the route, the serving target
  for (const c of flexible) {
    const over = total(gap) - options.width;
    if (over <= 0) break;
    c.width = Math.max(c.min, c.width - over);
  }
  const space = seg(' '.repeat(gap));
  return sessions.map((s, i) => {
    const segments: Segment[] = [
      seg(' '),
      seg(s.session.slice(0, 8).padEnd(8), 'title'),
      space,
      seg(fit(client.cells[i]!, client.width), s.client === null ? 'muted' : 'plain'),
      space,
    ];
    if (agent !== null) segments.push(seg(fit(agent.cells[i]!, agent.width), s.agent === null ? 'muted' : 'info'), space);
    segments.push(
      seg(fit(route.cells[i]!, route.width), 'plain'),
      space,
      seg(middleCut(served.cells[i]!, served.width).padEnd(served.width), s.servedBy === null ? 'bad' : 'ok'),
      space,
      seg(requests[i]!.padStart(requestsW), 'muted'),
      space,
    );
    if (s.failedOver) segments.push(seg(seen[i]!.padEnd(seenW), 'muted'), space, seg(FAILED_OVER_MARK, 'warn'));
    else segments.push(seg(seen[i]!, 'muted'));
    return clipLine(line(segments), options.width);
  });
}
