import { afterEach, describe, expect, test } from 'vitest';
import { ConnectionManager } from '../../src/top/source/connection-manager.js';
import { MonitorStore } from '../../src/top/store/monitor-store.js';
import { App } from '../../src/top/ui/components/App.js';
import { GUARD_MS } from '../../src/top/ui/monitor-keys.js';
import { createTheme } from '../../src/top/ui/theme.js';
import { FakeDaemon } from './support/fake-daemon.js';
import { ARROW_UP, ENTER, ESC, renderInk, type RenderedInk } from './support/render-ink.js';
import { BUSY_ROUTES, busyBreakers, busyHistory, busyUsage } from './support/v2-wire.js';

/**
 * Monitor v2 as a person uses it, at 80×24, 100×30 and 160×50, in colour and
 * not, against a daemon that speaks protocol v2 on a real socket: `top`
 * started before the daemon waits for it, the log starts from the daemon's
 * history, Tab and the log keys explore it and Enter explains a decision, `P`
 * probes after a confirm that names what it acts on, `r` on a row with
 * nothing open says so, a held `R` cannot open a second confirm, the message
 * line keeps the last action, and a lost daemon leaves stale countdowns and
 * no live pid.
 */
const TAB = '\t';

interface Session {
  daemon: FakeDaemon;
  store: MonitorStore;
  manager: ConnectionManager;
  ui: RenderedInk;
  /** the key guard's clock, moved by hand */
  clock: { now: number };
}

let session: Session | null = null;
afterEach(async () => {
  if (!session) return;
  session.ui.unmount();
  session.manager.stop();
  session.store.stop();
  await session.daemon.close();
  session = null;
});

/** The monitor first, the daemon not yet there. */
async function monitorBeforeDaemon(columns: number, rows: number, colour: boolean): Promise<Session> {
  const now = Date.now();
  const daemon = await FakeDaemon.start({ breakers: busyBreakers(now), routes: BUSY_ROUTES, recent: busyHistory(now) });
  for (const [seat, usage] of busyUsage(now)) daemon.usage.set(seat, usage);
  await daemon.stop();
  const store = new MonitorStore({ flushIntervalMs: 10 });
  const manager = new ConnectionManager({
    connect: daemon.connect,
    store,
    initialBackoffMs: 50,
    maxBackoffMs: 200,
    waitFor: { path: daemon.socketPath },
  });
  const clock = { now: 1_000_000 };
  const started = await manager.start();
  expect(started).toEqual({ ok: true });
  store.start();
  const ui = renderInk(<App store={store} actions={manager} theme={createTheme({ colour })} clock={() => clock.now} />, { columns, rows });
  await ui.ready();
  session = { daemon, store, manager, ui, clock };
  return session;
}

const selected = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';
const selectedAt = (frame: string) => frame.split('\n').findIndex((l) => l.startsWith('›'));

/**
 * Moves the selection one row at a time towards the pane row that `pattern` matches (as that row
 * reads once selected), until it is selected. The direction comes from the frame, so no key is
 * pressed only to find out that the selection cannot move.
 */
async function select(s: Session, pattern: RegExp): Promise<void> {
  for (let step = 0; step < 30; step += 1) {
    const frame = s.ui.frame();
    const lines = frame.split('\n');
    const at = selectedAt(frame);
    if (pattern.test(lines[at] ?? '')) return;
    const logAt = lines.findIndex((l) => l.startsWith('─ DECISIONS'));
    const panes = logAt === -1 ? lines : lines.slice(0, logAt);
    const target = panes.findIndex((l, i) => i !== at && pattern.test(`›${l.slice(1)}`));
    if (target === -1) break;
    s.ui.press(target > at ? 'j' : 'k');
    await s.ui.waitFor((f) => selectedAt(f) !== at);
  }
  throw new Error(`no row matching ${pattern}:\n${s.ui.frame()}`);
}

describe.each([
  [80, 24],
  [100, 30],
  [160, 50],
])('%i×%i', (columns, rows) => {
  test.each([true, false])('colour %s: wait, backfill, explore, explain, probe, guard, stale', async (colour) => {
    const s = await monitorBeforeDaemon(columns, rows, colour);
    const waiting = await s.ui.waitFor('waiting for the daemon at');
    expect(waiting).toContain(s.daemon.socketPath.slice(0, 20));
    expect(waiting).toContain('◌ waiting');

    // the daemon appears: top connects by itself and shows its history at once
    await s.daemon.resume();
    const live = await s.ui.waitFor((f) => f.includes('● live') && f.includes('(fail-open)'));
    expect(live).not.toContain('waiting for requests');
    expect(live).toMatch(/work-max probe 400 → /);

    // Tab: the log has the focus, its newest line is selected; ↑ selects the one above and holds the log still
    const focused = await s.ui.pressUntil(TAB, (f) => f.includes('Enter explains'));
    expect(selected(focused)).toContain('background request skipped');
    const held = await s.ui.pressUntil(ARROW_UP, 'PAUSED');
    expect(selected(held)).toContain('(fail-open)');
    // Enter explains it; q closes the explanation (and does not quit)
    const explained = await s.ui.pressUntil(ENTER, '─ DECISION  failed-open');
    expect(explained).toMatch(/route +codex/);
    expect(explained).toMatch(/chain +as ordered when the request started/);
    expect(explained).toMatch(/1 openrouter\/openai\/gpt-5-codex +429 +rate_limit/);
    expect(explained).toMatch(/fail-open/);
    const closed = await s.ui.pressUntil('q', (f) => f.includes('DECISIONS') && !f.includes('─ DECISION '));
    expect(closed).toContain('PAUSED');
    // G follows again
    await s.ui.pressUntil('G', (f) => f.includes('following'));

    // back to the panes: P on a quota seat asks, naming it, and makes it probe-ready
    await s.ui.pressUntil(TAB, (f) => f.includes('Tab log'));
    await select(s, /^›personal-pro /);
    const question = await s.ui.pressUntil('P', 'Make seat personal-pro probe-ready now (quota)?');
    expect(question).toContain('y yes, probe now');
    s.clock.now += GUARD_MS + 1;
    await s.ui.pressUntil('y', '✓ probe personal-pro: 1 made probe-ready (quota)');
    await s.ui.waitFor((f) => /^›personal-pro .*◌ quota +probe ready/m.test(f));
    expect(s.daemon.requestsOf('probe')).toEqual([{ cmd: 'probe', args: { seat: 'personal-pro' } }]);

    // r where nothing is open says so and asks nothing; the message line keeps it
    s.clock.now += GUARD_MS + 1;
    await select(s, /codex/);
    await s.ui.pressUntil('r', 'nothing to reset on openrouter/openai/gpt-5-codex: its trouble is seat-wide');
    expect(s.ui.frame()).not.toContain('CONFIRM');

    // a held R: one confirm; answered, the next R within the guard opens none
    await s.ui.pressUntil('R', 'Reset EVERY breaker on every seat?');
    s.ui.press('R');
    s.ui.press('R');
    await s.ui.pressUntil('n', 'reset all cancelled: nothing was changed');
    s.ui.press('R');
    // the guard holds until the clock moves: `?` after it shows the R did nothing
    await s.ui.pressUntil('?', 'HELP');
    await s.ui.pressUntil(ESC, 'CHAINS');
    expect(s.ui.frame()).not.toContain('CONFIRM');
    expect(s.ui.frame()).toContain('reset all cancelled: nothing was changed');
    expect(s.daemon.requestsOf('reset')).toHaveLength(0);
    s.clock.now += GUARD_MS + 1;
    await s.ui.pressUntil('R', 'Reset EVERY breaker');
    await s.ui.pressUntil('q', 'reset all cancelled');

    // the daemon goes: countdowns stop and say stale, the pid is the last one seen
    await s.daemon.stop();
    const stale = await s.ui.waitFor((f) => f.includes('✗ disconnected') && f.includes('(stale)'));
    // (at 80 columns the header has no room for it at all)
    if (columns >= 100) expect(stale).toContain(`last seen pid ${s.daemon.pid}`);
    expect(stale).not.toMatch(/daemon \S+ pid/);
    expect(stale).not.toMatch(/ up \d/);
    const countdown = /probe in (\S+) \(stale\)/.exec(stale)?.[1];
    expect(countdown).toBeDefined();
    // a tick later it reads the same
    const tick = s.store.getState().now;
    await s.ui.waitFor(() => s.store.getState().now > tick, 3000);
    expect(s.ui.frame()).toContain(`probe in ${countdown} (stale)`);
  });
});
