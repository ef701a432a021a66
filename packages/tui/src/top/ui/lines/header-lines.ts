import { formatDuration } from '@routeplane/shared';
import { type Segment, seg } from '../../../output/segment.js';
import type { MonitorState } from '../../store/monitor-state.js';
import { formatRate } from '../format.js';
import { spread, type Line } from './line.js';

/**
 * The header, two lines:
 *
 *   routeplane  http://127.0.0.1:4141 · up 5m12s                    ● live
 *   influence on · 12.3 req/s · 4 fail-overs/min             daemon 0.1.0
 *
 * The connection state is said in words (`disconnected — retrying in 2s`),
 * not only by colour.
 */
export function connectionSegments(connection: MonitorState['connection'], now: number): Segment[] {
  switch (connection.kind) {
    case 'connecting':
      return [seg('◌ connecting…', 'warn')];
    case 'live':
      return [seg('● live', 'ok')];
    case 'disconnected':
      return [
        seg(
          connection.retryAt === null
            ? '✗ disconnected — reconnecting…'
            : `✗ disconnected — retrying in ${formatDuration(Math.max(1000, connection.retryAt - now))}`,
          'bad',
        ),
      ];
  }
}

export function headerLines(state: MonitorState, width: number): Line[] {
  const { daemon, influence, now, rates } = state;
  const first: Segment[] = [seg('routeplane', 'title'), seg('  ')];
  if (daemon) {
    first.push(seg(daemon.httpUrl, 'info'));
    // The uptime of a daemon we cannot see would be a guess.
    if (state.connection.kind === 'live') first.push(seg(' · up ', 'muted'), seg(formatDuration(now - daemon.startedAt, 'down')));
  } else {
    first.push(seg('waiting for the daemon…', 'muted'));
  }
  const second: Segment[] = [];
  if (influence) {
    second.push(seg('influence '), influence.enabled ? seg('on', 'ok') : seg('off', 'warn'));
    if (!influence.enabled) second.push(seg(' (order never changes)', 'muted'));
  } else {
    second.push(seg('influence ?', 'muted'));
  }
  second.push(
    seg(' · ', 'muted'),
    seg(formatRate(rates.requestsPerSec), 'title'),
    seg(' req/s', 'muted'),
    seg(' · ', 'muted'),
    seg(String(rates.failoversPerMin), rates.failoversPerMin > 0 ? 'warn' : 'title'),
    seg(' fail-overs/min', 'muted'),
  );
  const version = daemon ? [seg(`daemon ${daemon.version} pid ${daemon.pid}`, 'muted')] : [];
  return [spread(first, connectionSegments(state.connection, now), width), spread(second, version, width)];
}
