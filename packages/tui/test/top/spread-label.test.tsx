import { afterEach, describe, expect, test } from 'vitest';
import { textWidth } from '../../src/output/text.js';
import type { MonitorActions } from '../../src/top/source/connection-manager.js';
import { MonitorStore } from '../../src/top/store/monitor-store.js';
import { App } from '../../src/top/ui/components/App.js';
import { createTheme } from '../../src/top/ui/theme.js';
import { breaker, type FixtureRoute, seatSubject, snapshotOf } from './support/fixtures.js';
import { renderInk, type RenderedInk } from './support/render-ink.js';
import { busyHello, daemonWire, feedWire } from './support/v2-wire.js';

/**
 * monitor-v2: "spread routes say `spread`" — on the route's name row, which
 * every route has, so a one-target spread route says it, and a spread route
 * failing open says both `spread` and `fail-open`. At 80 columns, where
 * room is tightest.
 */
const NOW = new Date(2025, 0, 15, 14, 3, 7).getTime();

const idle: MonitorActions = {
  reset: async () => ({ ok: true, cleared: 0 }),
  probe: async () => ({ ok: true, madeReady: 0 }),
};

const ROUTES: FixtureRoute[] = [
  { model: 'solo', balance: 'spread', chain: [{ seat: 'openrouter', model: 'anthropic/claude-haiku-4.5' }] },
  {
    model: 'pair',
    balance: 'spread',
    chain: [
      { seat: 'work-max', model: 'claude-haiku-4-5' },
      { seat: 'personal-pro', model: 'claude-haiku-4-5' },
    ],
  },
  { model: 'sonnet', chain: [{ seat: 'work-max', model: 'claude-sonnet-4-5' }] },
];

/** Both seats of `pair` out of credit: every target held back, so the route fails open. */
const BREAKERS = [
  breaker('credit', seatSubject('work-max'), { since: NOW - 1000, until: NOW + 60_000 }),
  breaker('credit', seatSubject('personal-pro'), { since: NOW - 1000, until: NOW + 90_000 }),
];

let ui: RenderedInk | null = null;
let store: MonitorStore | null = null;
afterEach(() => {
  ui?.unmount();
  store?.stop();
  ui = null;
  store = null;
});

describe('spread routes say spread', () => {
  test('at 80 columns: a one-target spread route, and a two-target one failing open', async () => {
    store = new MonitorStore({ flushIntervalMs: 5, clock: () => NOW });
    const snapshot = snapshotOf({ now: NOW, seq: 3, breakers: BREAKERS, routes: ROUTES });
    feedWire(store, daemonWire({ hello: busyHello(NOW), snapshot }));
    ui = renderInk(<App store={store} actions={idle} theme={createTheme({ colour: false })} />, { columns: 80, rows: 24 });
    const frame = await ui.waitFor((f) => f.includes('CHAINS') && f.includes('solo'));
    for (const l of frame.split('\n')) expect(textWidth(l)).toBeLessThanOrEqual(80);

    expect(frame).toMatch(/^.solo spread +● healthy +openrouter\/anthropic\S* +share 0%$/m);
    const lines = frame.split('\n');
    const pair = lines.findIndex((l) => /^.pair /.test(l));
    expect(lines[pair]).toMatch(/^.pair spread +✗ credit +work-max\/claude-haiku-4-5 /);
    expect(lines[pair + 1]).toMatch(/^ fail-open +✗ credit +personal-pro\/claude-haiku-4-5 /);
    // an ordered route says neither
    expect(frame).toMatch(/^.sonnet +✗ credit +work-max\/claude-sonnet-4-5 /m);
    expect(frame.match(/spread/g)).toHaveLength(2);
  });
});
