import chalk from 'chalk';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { textWidth } from '../../src/output/text.js';
import { themeFromEnv } from '../../src/top/ui/theme.js';
import { startApp, type AppHarness } from './support/app-harness.js';
import { attempt, breaker, decision, failoverDecision, SEATS, seatSubject, TARGET_NAMES, troubledBreakers } from './support/fixtures.js';

/** Screen size, resize, NO_COLOR. */
let app: AppHarness | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

// The worker's stdout is not a terminal, so chalk would write no escapes at all and a
// colour test could not fail: force full colour, as on a real terminal.
let level: typeof chalk.level;
beforeAll(() => {
  level = chalk.level;
  chalk.level = 3;
});
afterAll(() => {
  chalk.level = level;
});

/** A busy screen: trouble on every seat, a fail-over, a fail-open route and a full log. */
async function busyApp(options: { columns: number; rows: number; colour: boolean }): Promise<AppHarness> {
  const h = await startApp({ breakers: troubledBreakers, ...options });
  const now = Date.now();
  for (let i = 0; i < 30; i += 1) h.daemon.decide(i % 3 === 0 ? failoverDecision(now) : decision({ ts: now }));
  h.daemon.decide(
    decision({
      ts: now,
      route: 'codex',
      status: 429,
      served_by: 'openrouter/openai/gpt-5-codex',
      attempts: [attempt('openrouter', 'openai/gpt-5-codex', 'http_429', 429, 31)],
    }),
  );
  h.daemon.decide(
    decision({
      ts: now,
      attempts: [
        attempt('work-max', 'claude-sonnet-4-5', 'http_402', 402, 40),
        attempt('openrouter', 'anthropic/claude-sonnet-4.5', 'http_429', 429, 22),
        attempt('personal-pro', 'claude-sonnet-4-5', 'ok', 200, 700),
      ],
      duration_ms: 771,
    }),
  );
  await h.ui.waitFor('771ms');
  return h;
}

const colourCodes = /\x1b\[(3[0-9]|9[0-7]|4[0-9]|10[0-7])(;[0-9]+)*m/;

describe('80×24', () => {
  test('the whole screen fits: no line wider than 80, nothing wrapped, no name cut', async () => {
    app = await busyApp({ columns: 80, rows: 24, colour: true });
    const frame = app.ui.frame();
    const lines = frame.split('\n');
    // one row stays free at the bottom: a frame as tall as the terminal makes Ink clear and redraw
    expect(lines).toHaveLength(23);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(80);
    // every panel is there, in order
    const order = ['routeplane', 'CHAINS', 'SEATS', 'DECISIONS', 'q quit'].map((s) => frame.indexOf(s));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    // nothing cut: no ellipsis anywhere, and every target and seat name whole
    expect(frame).not.toContain('…');
    for (const name of TARGET_NAMES) expect(frame).toContain(name);
    for (const seat of SEATS) expect(frame).toMatch(new RegExp(`^ ${seat} `, 'm'));
    expect(frame).toMatch(/✗ credit +probe in 3m0[0-5]s/);
    expect(frame).toMatch(/ends in 4[0-2]s/);
    // three attempts: the server is named by its seat rather than cut
    expect(frame).toContain('771ms work-max 402 → openrouter 429 → personal-pro ok');
  });

  test('a name too long for its column is cut deliberately, with an ellipsis', async () => {
    app = await startApp({ columns: 80, rows: 24, breakers: troubledBreakers });
    const long = 'a-model-name-that-goes-on-and-on-and-on-far-beyond-any-column';
    // the route comes with a reload: the monitor takes a fresh snapshot for it
    app.daemon.routes.push({ model: 'long', chain: [{ seat: 'work-max', model: long }] });
    app.daemon.emit({ type: 'reload', ok: true, errors: [] });
    const now = Date.now();
    app.daemon.change('tripped', breaker('credit', seatSubject('personal-pro'), { since: now, until: now + 1000 }), 'http_402');
    const frame = await app.ui.waitFor('work-max/a-model-name');
    const row = frame.split('\n').find((l) => l.includes('work-max/a-model-name'))!;
    expect(textWidth(row)).toBeLessThanOrEqual(80);
    // cut in the middle, keeping the tail that tells it from its siblings
    expect(row).toMatch(/work-max\/a-model-name[a-z-]*…-column +probe in \d+m\d+s$/);
  });
});

describe('resize', () => {
  test('adapts to a new size, and says so when the terminal is too small', async () => {
    app = await busyApp({ columns: 120, rows: 40, colour: false });
    expect(app.ui.frame().split('\n')).toHaveLength(39);
    app.ui.resize(70, 20);
    const small = await app.ui.waitFor('Terminal too small');
    expect(small).toContain('70×20, needs 80×24');
    expect(small).toContain('q to quit');
    app.ui.resize(80, 24);
    const fits = await app.ui.waitFor('CHAINS');
    const lines = fits.split('\n');
    expect(lines).toHaveLength(23);
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(80);
  });

  test('q quits from the too-small screen too', async () => {
    app = await startApp({ columns: 60, rows: 10, firstFrame: 'Terminal too small' });
    const exited = app.ui.instance.waitUntilExit();
    app.ui.press('q');
    await expect(exited).resolves.toBeUndefined();
  });
});

describe('NO_COLOR', () => {
  test('NO_COLOR set → no colour escape codes at all; meaning kept by glyphs and words', async () => {
    const theme = themeFromEnv({ NO_COLOR: '1' });
    expect(theme.colour).toBe(false);
    app = await busyApp({ columns: 100, rows: 30, colour: theme.colour });
    await app.ui.pressUntil('R', 'CONFIRM');
    const raw = app.ui.rawFrame();
    expect(raw).not.toMatch(colourCodes);
    expect(raw).not.toContain('\x1b[3');
    expect(raw).not.toContain('\x1b[9');
    const text = app.ui.frame();
    expect(text).toContain('✗ credit');
    expect(text).toContain('● healthy');
    expect(text).toContain('● live');
  });

  test('without NO_COLOR the same screen is in colour (so the test above can fail)', async () => {
    expect(themeFromEnv({}).colour).toBe(true);
    expect(themeFromEnv({ NO_COLOR: '' }).colour).toBe(true); // empty means unset (no-color.org)
    app = await busyApp({ columns: 100, rows: 30, colour: true });
    expect(app.ui.rawFrame()).toMatch(colourCodes);
  });
});
