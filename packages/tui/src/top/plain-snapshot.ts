import { formatDuration, type HelloResult, type Snapshot } from '@routeplane/shared';
import { modelOf } from './store/daemon-model.js';
import { routeViews, seatViews } from './store/derive-view.js';
import { chainLines } from './ui/lines/chain-lines.js';
import { lineText } from './ui/lines/line.js';
import { storeWords } from './ui/lines/header-lines.js';
import { seatLines, seatRows } from './ui/lines/seat-lines.js';

/**
 * `top` when stdout is not a terminal: one plain-text snapshot (no colour, no
 * cursor movement) built from the same model, views and line builders as the
 * screen, laid out wide enough that nothing is cut.
 */
const WIDE = 400;

export function plainSnapshot(hello: HelloResult, snapshot: Snapshot): string {
  const now = snapshot.now;
  const clock = { now, stale: false };
  const model = modelOf(snapshot);
  const { requests, failovers, fail_open: failOpen } = snapshot.counters;
  const out = [
    `routeplane  ${hello.http_url} · up ${formatDuration(now - hello.started_at, 'down')} · daemon ${hello.version} pid ${hello.pid}`,
    `influence ${snapshot.influence.enabled ? 'on' : 'off'} · requests ${requests} · fail-overs ${failovers} · fail-open ${failOpen} · store ${storeText(snapshot, now)}`,
    '',
    'CHAINS (order a request tries now)',
    ...chainLines(routeViews(model), { width: WIDE, clock, selectedKey: null }).map(lineText),
    '',
    'SEATS (breakers and usage)',
    ...seatLines(seatRows(seatViews(model), { clock }), { width: WIDE, selectedKey: null, now }).map(lineText),
  ];
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}

function storeText(snapshot: Snapshot, now: number): string {
  return storeWords(snapshot.store, now)
    .map((s) => s.text)
    .join('');
}
