import { formatDuration, type HelloResult, type Snapshot } from '@routeplane/shared';
import { modelOf } from './store/daemon-model.js';
import { routeViews, seatViews } from './store/derive-view.js';
import { chainLines } from './ui/lines/chain-lines.js';
import { lineText } from './ui/lines/line.js';
import { seatLines, seatRows } from './ui/lines/seat-lines.js';

/**
 * `top` when stdout is not a terminal: one plain-text snapshot (no colour, no
 * cursor movement) built from the same model, views and line builders as the
 * screen, laid out wide enough that nothing is cut.
 */
const WIDE = 400;

export function plainSnapshot(hello: HelloResult, snapshot: Snapshot): string {
  const now = snapshot.now;
  const model = modelOf(snapshot);
  const { requests, failovers, fail_open: failOpen } = snapshot.counters;
  const out = [
    `routeplane  ${hello.http_url} · up ${formatDuration(now - hello.started_at, 'down')} · daemon ${hello.version} pid ${hello.pid}`,
    `influence ${snapshot.influence.enabled ? 'on' : 'off'} · requests ${requests} · fail-overs ${failovers} · fail-open ${failOpen}`,
    '',
    'CHAINS (order a request tries now)',
    ...chainLines(routeViews(model), { width: WIDE, now, selectedKey: null }).map(lineText),
    '',
    'SEATS (breakers and refused attempts)',
    ...seatLines(seatRows(seatViews(model), now), { width: WIDE, selectedKey: null }).map(lineText),
  ];
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}
