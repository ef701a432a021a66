import type { DaemonEvent } from '@routeplane/shared';
import { afterEach, describe, expect, test } from 'vitest';
import type { MonitorActions } from '../../src/top/source/connection-manager.js';
import { MonitorStore } from '../../src/top/store/monitor-store.js';
import { App } from '../../src/top/ui/components/App.js';
import { createTheme } from '../../src/top/ui/theme.js';
import { breaker, breakerEvent, seatSubject, snapshotOf, targetSubject } from './support/fixtures.js';
import { renderInk, type RenderedInk } from './support/render-ink.js';
import { busyHello, daemonWire, feedWire, REDIS_OK } from './support/v2-wire.js';

/**
 * What `top` shows of a shared store, fed by the
 * protocol-v2 lines a daemon sends: a degraded store said in words in the
 * header, and a target held back by another daemon's transition saying where
 * it came from (`origin`).
 */
const NOW = new Date(2025, 0, 15, 14, 3, 7).getTime();
const SELF = busyHello(NOW).daemon_id; // fixture-host:4242
const PEER = 'laptop-b:48213';

const idle: MonitorActions = {
  reset: async () => ({ ok: true, cleared: 0 }),
  probe: async () => ({ ok: true, madeReady: 0 }),
};

let ui: RenderedInk | null = null;
let store: MonitorStore | null = null;
afterEach(() => {
  ui?.unmount();
  store?.stop();
  ui = null;
  store = null;
});

function screen(events: DaemonEvent[], columns: number, rows = 24): RenderedInk {
  store = new MonitorStore({ flushIntervalMs: 5, clock: () => NOW });
  const snapshot = { ...snapshotOf({ now: NOW, seq: 10 }), store: REDIS_OK };
  feedWire(store, daemonWire({ hello: { ...busyHello(NOW), store: REDIS_OK }, snapshot, events }));
  ui = renderInk(<App store={store} actions={idle} theme={createTheme({ colour: false })} />, { columns, rows });
  return ui;
}

describe('the header says a degraded store in words', () => {
  test.each([80, 100])('%i columns: redis ok, then a store event: redis degraded and for how long', async (columns) => {
    const degraded: DaemonEvent = {
      type: 'store',
      seq: 11,
      ts: NOW,
      store: { kind: 'redis', state: 'degraded', since: NOW - 12_000, daemons: 3 },
    };
    const frame = await screen([degraded], columns).waitFor((f) => f.includes('● live') && f.includes('CHAINS'));
    const header = frame.split('\n')[0]!;
    expect(header).toMatch(/store redis degraded 12s {2}● live$/);
    expect(frame).not.toContain('redis ok');
  });
});

describe('a transition from another daemon says where it came from', () => {
  test('work-max tripped by a peer reads (from PEER); a trip of its own, and a count event of its own, do not change that', async () => {
    const credit = breaker('credit', seatSubject('work-max'), { since: NOW - 2000, until: NOW + 60_000 });
    const opus = breaker('errors', targetSubject('personal-pro', 'claude-opus-4-1'), { since: NOW - 1000, until: NOW + 30_000 });
    const events: DaemonEvent[] = [
      { ...breakerEvent(11, NOW - 2000, 'tripped', credit, 'http_402'), origin: PEER },
      { ...breakerEvent(12, NOW - 1000, 'tripped', opus, 'http_5xx'), origin: SELF },
      // this daemon's answers failed again while it was open: a count, no transition
      { ...breakerEvent(13, NOW, 'refused', { ...credit, refused_count: 1 }, 'refused'), origin: SELF },
    ];
    const frame = await screen(events, 120, 30).waitFor((f) => f.includes('✗ credit') && f.includes('✗ errors'));
    const row = (target: string) => frame.split('\n').filter((l) => l.includes(target) && l.includes('✗'));
    const workMax = row('work-max/claude-sonnet-4-5');
    expect(workMax).toHaveLength(1);
    expect(workMax[0]).toMatch(new RegExp(`probe in 1m00s +\\(from ${PEER}\\)$`));
    expect(row('work-max/claude-opus-4-1')[0]).toContain(`(from ${PEER})`);
    expect(row('personal-pro/claude-opus-4-1')[0]).not.toContain('from');
  });

  test('a later transition by this daemon itself replaces it: the row no longer says from', async () => {
    const credit = breaker('credit', seatSubject('work-max'), { since: NOW - 2000, until: NOW + 60_000 });
    const events: DaemonEvent[] = [
      { ...breakerEvent(11, NOW - 2000, 'tripped', credit, 'http_402'), origin: PEER },
      { ...breakerEvent(12, NOW - 1000, 'extended', { ...credit, until: NOW + 120_000 }, 'http_402'), origin: SELF },
    ];
    const frame = await screen(events, 120, 30).waitFor((f) => f.includes('probe in 2m00s'));
    expect(frame).toContain('✗ credit');
    expect(frame).not.toContain('(from ');
  });
});
