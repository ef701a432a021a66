import { formatDuration, type StoreInfo } from '@routeplane/shared';
import { type Segment, seg } from '../../../output/segment.js';
import { textWidth } from '../../../output/text.js';
import type { MonitorState } from '../../store/monitor-state.js';
import { formatRate } from '../format.js';
import { clipLine, line, spread, type Line } from './line.js';

/**
 * The header, two lines (three in the demo, with the scene in words):
 *
 *   routeplane  http://127.0.0.1:4141 · up 5m12s     store redis ok · 3 daemons  ● live
 *   influence on · 12.3 req/s · 4 fail-overs/min · background 8/min (2 skipped)   daemon 0.1.0 pid 9
 *   scene 2/4: seat-b is rate-limited — watch "ends in"
 *
 * The connection is said in words (`waiting for the daemon at PATH…`,
 * `disconnected — retrying in 2s`), not only by colour; while disconnected the
 * daemon's pid is said to be the last one seen, not shown as if live. When a
 * line does not fit, its least needed parts give way whole: the store before
 * the connection, the daemon's version and pid before the rates.
 */
export function connectionSegments(connection: MonitorState['connection'], now: number): Segment[] {
  switch (connection.kind) {
    case 'waiting':
      return [seg('◌ waiting', 'warn')];
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

/** `memory`, `redis ok · 3 daemons`, `redis degraded 12s`. */
export function storeWords(store: StoreInfo, now: number): Segment[] {
  if (store.kind === 'memory') return [seg('memory')];
  if (store.state === 'ok') return [seg('redis ok', 'ok'), seg(` · ${store.daemons} daemon${store.daemons === 1 ? '' : 's'}`)];
  return [seg(`redis degraded ${formatDuration(now - store.since, 'down')}`, 'bad')];
}

/** Parts of the second line, most needed first: when it is too long the last ones go. */
function statusParts(state: MonitorState): Segment[][] {
  const { influence, rates } = state;
  const parts: Segment[][] = [];
  if (influence) {
    const words = [seg('influence '), influence.enabled ? seg('on', 'ok') : seg('off', 'warn')];
    if (!influence.enabled) words.push(seg(' (order never changes)', 'muted'));
    parts.push(words);
  } else {
    parts.push([seg('influence ?', 'muted')]);
  }
  parts.push([seg(formatRate(rates.requestsPerSec), 'title'), seg(' req/s', 'muted')]);
  parts.push([seg(String(rates.failoversPerMin), rates.failoversPerMin > 0 ? 'warn' : 'title'), seg(' fail-overs/min', 'muted')]);
  if (rates.backgroundPerMin > 0) {
    const words = [seg('background ', 'muted'), seg(`${rates.backgroundPerMin}/min`, 'info')];
    if (rates.skippedPerMin > 0) words.push(seg(` (${rates.skippedPerMin} skipped)`, 'warn'));
    parts.push(words);
  }
  return parts;
}

function widthOf(segments: readonly Segment[]): number {
  return textWidth(segments.map((s) => s.text).join(''));
}

function joined(parts: readonly Segment[][]): Segment[] {
  return parts.flatMap((p, i) => (i === 0 ? p : [seg(' · ', 'muted'), ...p]));
}

export function headerLines(state: MonitorState, width: number, scene: string | null = null): Line[] {
  const { daemon, now, connection } = state;
  const first: Segment[] = [seg('routeplane', 'title'), seg('  ')];
  if (connection.kind === 'waiting') {
    first.push(seg(`waiting for the daemon at ${connection.path}…`, 'warn'));
  } else if (daemon) {
    first.push(seg(daemon.httpUrl, 'info'));
    // The uptime of a daemon we cannot see would be a guess.
    if (connection.kind === 'live') first.push(seg(' · up ', 'muted'), seg(formatDuration(now - daemon.startedAt, 'down')));
  } else {
    first.push(seg('connecting to the daemon…', 'muted'));
  }
  const identity: Segment[] = daemon
    ? connection.kind === 'live'
      ? [seg(`daemon ${daemon.version} pid ${daemon.pid}`, 'muted')]
      : [seg(`last seen pid ${daemon.pid}`, 'muted')]
    : [];
  const connectionWords = connectionSegments(connection, now);
  const store = state.store && connection.kind === 'live' ? [seg('store ', 'muted'), ...storeWords(state.store, now), seg('  ')] : [];
  const right = widthOf(first) + widthOf(store) + widthOf(connectionWords) < width ? [...store, ...connectionWords] : connectionWords;
  const parts = statusParts(state);
  const shownIdentity = widthOf(joined(parts)) + widthOf(identity) < width ? identity : [];
  while (parts.length > 1 && widthOf(joined(parts)) + widthOf(shownIdentity) >= width) parts.pop();
  const lines = [spread(first, right, width), spread(joined(parts), shownIdentity, width)];
  if (scene !== null) lines.push(clipLine(line([seg(scene, 'info')]), width));
  return lines;
}
