import type { HelloResult, Snapshot } from '@routeplane/shared';
import { learnRouteOrders } from './store/configured-order.js';
import { deriveRoutes, deriveSeats } from './store/derive-view.js';
import { formatSeconds } from './ui/format.js';
import { chainLines } from './ui/lines/chain-lines.js';
import { lineText } from './ui/lines/line.js';
import { seatLines, seatRows } from './ui/lines/seat-lines.js';

/**
 * `top` when stdout is not a terminal: one plain-text snapshot (no colour, no
 * cursor movement) built from the same line builders as the screen, laid out
 * wide enough that nothing is cut.
 */
const WIDE = 400;

export function plainSnapshot(hello: HelloResult, snapshot: Snapshot): string {
  const now = snapshot.now;
  const maxCooldownMs = snapshot.influence.max_cooldown_secs * 1000;
  const routes = deriveRoutes(learnRouteOrders([], snapshot), snapshot.seats, now, maxCooldownMs);
  const seats = seatRows(deriveSeats(snapshot.seats, now, maxCooldownMs), now, snapshot.influence.trip_threshold);
  const { requests, failovers, fail_open: failOpen } = snapshot.counters;
  const out = [
    `routeplane  ${hello.http_url} · up ${formatSeconds((now - hello.started_at) / 1000)} · daemon ${hello.version} pid ${hello.pid}`,
    `influence ${snapshot.influence.enabled ? 'on' : 'off'} · requests ${requests} · fail-overs ${failovers} · fail-open ${failOpen}`,
    '',
    'CHAINS (order a request tries now)',
    ...chainLines(routes, { width: WIDE, now, selectedKey: null }).map(lineText),
    '',
    'SEATS (breakers and refused attempts)',
    ...seatLines(seats, { width: WIDE, selectedKey: null }).map(lineText),
  ];
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}
