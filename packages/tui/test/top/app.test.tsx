import chalk from 'chalk';
import { afterEach, describe, expect, test } from 'vitest';
import { KEYMAP } from '../../src/top/ui/keymap.js';
import { WORDS } from '../../src/top/ui/lines/help-lines.js';
import { startApp, type AppHarness } from './support/app-harness.js';
import { attempt, breaker, decision, failoverDecision, INFLUENCE_OFF, seatSubject, troubledBreakers } from './support/fixtures.js';
import { BACKSPACE, ENTER, ESC } from './support/render-ink.js';

/** The whole monitor against a fake daemon: keys in, frames and requests out. */
let app: AppHarness | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

/** The line of the frame that carries the selection marker. */
const selectedLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';

/** Presses `j`/`k` until the selected line matches, one key at a time (a burst would read as a paste). */
async function selectRow(h: AppHarness, pattern: RegExp, key = 'j', maxPresses = 20): Promise<void> {
  for (let i = 0; i < maxPresses; i += 1) {
    const before = selectedLine(h.ui.frame());
    if (pattern.test(before)) return;
    h.ui.press(key);
    await h.ui.waitFor((f) => selectedLine(f) !== before);
  }
  throw new Error(`no row matching ${pattern} after ${maxPresses} presses:\n${h.ui.frame()}`);
}

describe('live updates', () => {
  test('a breaker trip moves the target to the back of its chain and shows its countdown', async () => {
    app = await startApp();
    const before = await app.ui.waitFor('CHAINS');
    expect(before).toMatch(/sonnet +● healthy +work-max\/claude-sonnet-4-5\n/);
    const now = Date.now();
    app.daemon.change('tripped', breaker('credit', seatSubject('work-max'), { since: now, until: now + 42_400 }), 'http_402');
    const after = await app.ui.waitFor('✗ credit');
    const lines = after.split('\n');
    const sonnet = lines.findIndex((l) => /^.sonnet /.test(l));
    expect(lines[sonnet]).toMatch(/● healthy +personal-pro\/claude-sonnet-4-5/);
    expect(lines[sonnet + 1]).toMatch(/● healthy +openrouter\/anthropic\/claude-sonnet-4\.5/);
    expect(lines[sonnet + 2]).toMatch(/✗ credit +work-max\/claude-sonnet-4-5 +probe in 4[0-3]s$/);
    expect(after).toMatch(/^ work-max +[·▁-█⣀-⣿]{24} +✗ credit +probe in 4[0-3]s$/m);
  });

  test('decisions scroll in at the bottom of the log', async () => {
    app = await startApp();
    app.daemon.decide(
      decision({
        ts: Date.now(),
        route: 'opus',
        served_by: 'work-max/claude-opus-4-1',
        attempts: [attempt('work-max', 'claude-opus-4-1', 'ok', 200, 5)],
      }),
    );
    app.daemon.decide(failoverDecision(Date.now()));
    const frame = await app.ui.waitFor('work-max 402 →');
    const log = frame.slice(frame.indexOf('DECISIONS')).split('\n');
    expect(log[1]).toContain('opus');
    expect(log[2]).toContain('work-max 402 → personal-pro/claude-sonnet-4-5 ok');
  });

  test('countdowns run down on the shared 1 Hz tick', async () => {
    app = await startApp({ breakers: troubledBreakers });
    const first = /ends in (\d+)s/.exec(await app.ui.waitFor('ends in'))![1]!;
    const later = await app.ui.waitFor((f) => {
      const shown = /ends in (\d+)s/.exec(f)?.[1];
      return shown !== undefined && Number(shown) < Number(first);
    });
    // every countdown on screen moved together: the seat row agrees with the chain row
    const chainRow = /openrouter\/openai\/gpt-5-codex +ends in (\d+)s/.exec(later)![1];
    const seatRow = /openrouter +\S{24} +✗ rate-limit +ends in (\d+)s/.exec(later)![1];
    expect(seatRow).toBe(chainRow);
  });

  test('a flood of events costs a frame per flush interval at most, not one per event', async () => {
    app = await startApp();
    await app.ui.waitFor('waiting for requests');
    const framesBefore = app.ui.frameCount();
    const startedAt = Date.now();
    // the daemon flushes its queue to a subscriber in one write
    app.daemon.burst(() => {
      for (let i = 0; i < 2000; i += 1)
        app!.daemon.decide(decision({ ts: startedAt, request_id: `flood-${i}`, route: i === 1999 ? 'the-last-one' : 'sonnet' }));
    });
    await app.ui.waitFor((f) => / the-last-one /.test(f));
    const tookMs = Date.now() - startedAt;
    expect(app.store.getState().decisionsReceived).toBe(2000);
    // the lines arrive in many socket reads; the store folds them into one update per 20 ms
    // flush (the harness's interval), however many events each read held
    const frames = app.ui.frameCount() - framesBefore;
    expect(frames).toBeLessThanOrEqual(Math.ceil(tookMs / 20) + 2);
    expect(frames).toBeLessThan(100);
  });
});

describe('reset keys', () => {
  test('r then y resets exactly the selected seat', async () => {
    app = await startApp({ breakers: troubledBreakers });
    await selectRow(app, /^›personal-pro /);
    const question = await app.ui.pressUntil('r', 'Reset seat personal-pro');
    expect(question).toContain('y yes, reset');
    expect(app.daemon.requestsOf('reset')).toHaveLength(0); // nothing before the answer
    await app.ui.pressUntil('y', '✓ reset personal-pro: cleared 1 (errors)');
    expect(app.daemon.requestsOf('reset')).toEqual([{ cmd: 'reset', args: { seat: 'personal-pro' } }]);
    // the daemon's reset event frees the target: no snapshot needed
    await app.ui.waitFor((f) => /^.personal-pro +\S{24} +● healthy/m.test(f) && !f.includes('└ claude-opus-4-1'));
    expect(app.daemon.requestsOf('snapshot')).toHaveLength(1);
  });

  test('r on a chain target resets that target (seat and model); with only seat-wide trouble it says so and asks nothing', async () => {
    app = await startApp({ breakers: troubledBreakers });
    await selectRow(app, /work-max\/claude-sonnet-4-5/);
    await app.ui.pressUntil('r', 'nothing to reset on work-max/claude-sonnet-4-5: its trouble is seat-wide — select seat work-max');
    expect(app.ui.frame()).not.toContain('CONFIRM');
    await selectRow(app, /personal-pro\/claude-opus-4-1/);
    const question = await app.ui.pressUntil('r', 'Reset target personal-pro/claude-opus-4-1');
    expect(question).toContain('y yes, reset');
    await app.ui.pressUntil('y', '✓ reset personal-pro/claude-opus-4-1: cleared 1 (errors)');
    expect(app.daemon.requestsOf('reset')).toEqual([{ cmd: 'reset', args: { seat: 'personal-pro', model: 'claude-opus-4-1' } }]);
  });

  test('R then Enter (without y) sends nothing: all defaults to No', async () => {
    app = await startApp({ breakers: troubledBreakers });
    await app.ui.pressUntil('R', 'Reset EVERY breaker on every seat?');
    await app.ui.pressUntil(ENTER, 'reset all cancelled: nothing was changed');
    expect(app.ui.frame()).not.toContain('CONFIRM');
    expect(app.daemon.requestsOf('reset')).toHaveLength(0);
  });

  test('R then y resets everything', async () => {
    app = await startApp({ breakers: troubledBreakers });
    await app.ui.pressUntil('R', 'Reset EVERY breaker');
    await app.ui.pressUntil('y', '✓ reset all: cleared 3 (credit, errors, rate_limit)');
    expect(app.daemon.requestsOf('reset')).toEqual([{ cmd: 'reset', args: undefined }]);
    const clear = await app.ui.waitFor((f) => !f.includes('✗'));
    expect(clear).toMatch(/sonnet +● healthy +work-max\/claude-sonnet-4-5\n/);
  });

  test('the message line keeps the last action and what it did until the next action', async () => {
    app = await startApp({ breakers: troubledBreakers });
    await app.ui.pressUntil('R', 'Reset EVERY breaker');
    await app.ui.pressUntil('n', 'reset all cancelled: nothing was changed');
    // a tick later it is still there: only the next action replaces it
    const ticks = app.store.getState().now;
    await app.ui.waitFor(() => app!.store.getState().now > ticks);
    expect(app.ui.frame()).toContain('reset all cancelled: nothing was changed');
    await selectRow(app, /^›personal-pro /);
    await app.ui.pressUntil('r', 'Reset seat personal-pro');
    await app.ui.pressUntil('y', '✓ reset personal-pro: cleared 1 (errors)');
    expect(app.ui.frame()).not.toContain('cancelled');
  });

  test('influence off: reset keys are dimmed and say why instead of asking', async () => {
    app = await startApp({ influence: INFLUENCE_OFF });
    await app.ui.waitFor('influence off');
    await app.ui.pressUntil('R', 'routing influence is disabled (no breakers to reset)');
    expect(app.ui.frame()).not.toContain('CONFIRM');
    expect(app.daemon.requestsOf('reset')).toHaveLength(0);
  });
});

describe('the decision log', () => {
  test('p pauses (PAUSED badge): new decisions stop scrolling in; p again follows', async () => {
    app = await startApp();
    app.daemon.decide(decision({ ts: Date.now(), request_id: 'first', route: 'opus' }));
    await app.ui.waitFor((f) => /DECISIONS[^\n]*\n[^\n]*opus/.test(f));
    const paused = await app.ui.pressUntil('p', 'PAUSED');
    expect(paused).toContain('p follow');
    app.daemon.decide(failoverDecision(Date.now()));
    const held = await app.ui.waitFor('PAUSED  1 new');
    expect(held).not.toContain('work-max 402');
    const following = await app.ui.pressUntil('p', 'work-max 402 → personal-pro');
    expect(following).not.toContain('PAUSED');
  });

  test('/ filters the log by route, seat or status; Esc clears', async () => {
    app = await startApp();
    const now = Date.now();
    app.daemon.decide(
      decision({
        ts: now,
        route: 'opus',
        served_by: 'work-max/claude-opus-4-1',
        attempts: [attempt('work-max', 'claude-opus-4-1', 'ok', 200, 5)],
      }),
    );
    app.daemon.decide(failoverDecision(now));
    app.daemon.decide(
      decision({
        ts: now,
        route: 'codex',
        status: 429,
        served_by: 'openrouter/openai/gpt-5-codex',
        attempts: [attempt('openrouter', 'openai/gpt-5-codex', 'http_429', 429, 5)],
      }),
    );
    await app.ui.waitFor('codex 429');
    await app.ui.pressUntil('/', '/ filter:');
    let frame = await app.ui.pressUntil('402', 'filter "402" 1 shown');
    expect(frame).toContain('work-max 402 → personal-pro');
    expect(frame).not.toMatch(/ opus +200/);
    expect(frame).not.toContain('codex 429');
    await app.ui.pressUntil(ENTER, (f) => !f.includes('/ filter:'));
    // a seat name: the opus decision was served by work-max, the 402 attempt was on it too
    await app.ui.pressUntil('/', '/ filter:');
    for (const left of ['40', '4', '']) await app.ui.pressUntil(BACKSPACE, `filter: ${left}▏`);
    frame = await app.ui.pressUntil('openrouter', 'filter "openrouter" 1 shown');
    expect(frame).toContain('codex 429');
    await app.ui.pressUntil(ENTER, (f) => !f.includes('/ filter:'));
    frame = await app.ui.pressUntil(ESC, (f) => !f.includes('filter "'));
    expect(frame).toContain('work-max 402');
    expect(frame).toContain('codex 429');
  });
});

describe('help and quit', () => {
  test('? shows every key of the keymap; Esc closes it', async () => {
    app = await startApp({ rows: 30 });
    let help = await app.ui.pressUntil('?', 'HELP');
    // it is longer than the screen: ↓ scrolls it, a row at a time, to its end
    const seen = new Set(help.split('\n'));
    while (!/(\d+)-(\d+) of \2 /.test(help)) {
      const before = help;
      help = await app.ui.pressUntil('j', (f) => f !== before);
      for (const l of help.split('\n')) seen.add(l);
    }
    const all = [...seen].join('\n');
    for (const binding of KEYMAP) {
      expect(all).toContain(binding.keyLabel);
      expect(all).toContain(binding.label);
    }
    for (const [word] of WORDS) expect(all).toContain(word);
    const back = await app.ui.pressUntil(ESC, 'CHAINS');
    expect(back).not.toContain('HELP');
  });

  test('q quits', async () => {
    app = await startApp();
    const exited = app.ui.instance.waitUntilExit();
    app.ui.press('q');
    await expect(exited).resolves.toBeUndefined();
  });
});

describe('losing the daemon', () => {
  test('says disconnected in words, greys the last state, refuses resets, and comes back live by itself', async () => {
    const level = chalk.level;
    chalk.level = 3; // the test worker's stdout is no terminal: force escapes so greying is visible
    app = await startApp({ breakers: troubledBreakers, colour: true }).finally(() => undefined);
    app.daemon.stop();
    const down = await app.ui.waitFor('✗ disconnected — retrying in');
    expect(down).toContain('work-max/claude-sonnet-4-5'); // last state kept
    const greyed = app.ui
      .rawFrame()
      .split('\n')
      .find((l) => l.includes('work-max/claude-sonnet-4-5'))!;
    expect(greyed).toContain('\x1b[2m');
    expect(greyed).not.toMatch(/\x1b\[3[1-6]m/);
    await app.ui.pressUntil('r', 'not connected to the daemon: reset is unavailable');
    await app.ui.pressUntil('R', 'not connected to the daemon');
    expect(app.ui.frame()).not.toContain('CONFIRM');
    await app.daemon.restart({ breakers: troubledBreakers(Date.now()) });
    await app.ui.waitFor('● live');
    expect(app.daemon.requestsOf('reset')).toHaveLength(0);
    chalk.level = level;
  });
});
