import { afterEach, describe, expect, test } from 'vitest';
import { startApp, type AppHarness } from './support/app-harness.js';
import { decision } from './support/fixtures.js';

/**
 * The decision log's scroll keys as key bindings: with
 * the log focused, `g` and Home select the oldest decision, PgDn moves the
 * selection a page down, `G` follows the newest again. The daemon's history
 * (`recent`) is 40 decisions, far more than the log's rows.
 */
let app: AppHarness | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const TAB = '\t';
const HOME = '\x1b[H';
const PAGE_DOWN = '\x1b[6~';
const COUNT = 40;
const name = (i: number) => `route-${String(i).padStart(2, '0')}`;

const selectedLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('›')) ?? '';
const selectedRoute = (frame: string) => /route-\d\d/.exec(selectedLine(frame))?.[0] ?? null;
/** the decision rows on screen */
const logRows = (frame: string) => frame.split('\n').filter((l) => /^[ ›]\d\d:\d\d:\d\d route-\d\d /.test(l));

describe('log keys', () => {
  test('g and Home select the oldest, PgDn a page down, G follows the newest again', async () => {
    app = await startApp({
      rows: 30,
      recent: (now) =>
        Array.from({ length: COUNT }, (_, i) => decision({ ts: now - (COUNT - i) * 1000, request_id: `d-${i}`, route: name(i) })),
    });
    await app.ui.waitFor(name(COUNT - 1));
    const focused = await app.ui.pressUntil(TAB, (f) => f.includes('Enter explains'));
    expect(selectedRoute(focused)).toBe(name(COUNT - 1));
    const height = logRows(focused).length;
    expect(height).toBeGreaterThan(2);
    expect(height).toBeLessThan(COUNT / 2);

    const oldest = await app.ui.pressUntil('g', (f) => selectedRoute(f) === name(0));
    expect(oldest).toContain('PAUSED');
    expect(logRows(oldest)[0]).toContain(name(0));

    // a page is the log's rows less one: the selection lands on the last row shown, then the window follows it
    const page = height - 1;
    const paged = await app.ui.pressUntil(PAGE_DOWN, (f) => selectedRoute(f) === name(page));
    expect(logRows(paged)[0]).toContain(name(0));
    const pagedAgain = await app.ui.pressUntil(PAGE_DOWN, (f) => selectedRoute(f) === name(2 * page));
    expect(pagedAgain).not.toContain(name(0));
    expect(logRows(pagedAgain).at(-1)).toContain(name(2 * page));

    const newest = await app.ui.pressUntil('G', (f) => selectedRoute(f) === name(COUNT - 1) && !f.includes('PAUSED'));
    expect(newest).toContain('following');
    await app.ui.pressUntil(HOME, (f) => selectedRoute(f) === name(0) && f.includes('PAUSED'));
  });
});
