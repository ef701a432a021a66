import { clockTime } from '@routeplane/shared';
import chalk from 'chalk';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { textWidth } from '../../src/output/text.js';
import type { MonitorActions } from '../../src/top/source/connection-manager.js';
import { MonitorStore } from '../../src/top/store/monitor-store.js';
import { App } from '../../src/top/ui/components/App.js';
import { createTheme } from '../../src/top/ui/theme.js';
import { renderInk, type RenderedInk } from './support/render-ink.js';
import { busyWire, DATED, feedWire } from './support/v2-wire.js';

/**
 * Every element of monitor v2 on one busy screen, fed
 * by the protocol-v2 lines a daemon sends (support/v2-wire.ts), at 80×24,
 * 100×30 and 160×50, in colour and without: gauges, a quota's reset, the
 * signal in words, sparklines with failed buckets, counts named for what they
 * count, drained and spread targets with their shares, names cut apart,
 * the backfilled log with its probe and fail-open marks, the store and the
 * background lane in the header. The clock stands still, so every figure is
 * exact.
 */
const NOW = new Date(2025, 0, 15, 14, 3, 7).getTime();
const HOUR = 3_600_000;
const quotaAt = clockTime(NOW + 2 * HOUR + 14 * 60_000, NOW, -new Date(NOW).getTimezoneOffset());

const idle: MonitorActions = {
  reset: async () => ({ ok: true, cleared: 0 }),
  probe: async () => ({ ok: true, madeReady: 0 }),
};

let level: typeof chalk.level;
beforeAll(() => {
  // the worker's stdout is no terminal: without this, a colour test could not fail
  level = chalk.level;
  chalk.level = 3;
});
afterAll(() => {
  chalk.level = level;
});

let ui: RenderedInk | null = null;
let store: MonitorStore | null = null;
afterEach(() => {
  ui?.unmount();
  store?.stop();
  ui = null;
  store = null;
});

async function busyScreen(columns: number, rows: number, colour: boolean): Promise<string> {
  store = new MonitorStore({ flushIntervalMs: 5, clock: () => NOW });
  feedWire(store, busyWire(NOW));
  ui = renderInk(<App store={store} actions={idle} theme={createTheme({ colour })} />, { columns, rows });
  return ui.waitFor((f) => f.includes('DECISIONS') && f.includes('background-skipped') === false && f.includes('haiku'));
}

const lineOf = (frame: string, pattern: RegExp) => frame.split('\n').find((l) => pattern.test(l)) ?? '';
const SPARK = /[·▁▂▃▄▅▆▇█⣀⣤⣶⣿]{24}/;
const colourCodes = /\x1b\[(3[0-9]|9[0-7])(;[0-9]+)*m/;

describe.each([
  [80, 24],
  [100, 30],
  [160, 50],
])('%i×%i', (columns, rows) => {
  describe.each([true, false])('colour %s', (colour) => {
    test('every v2 element is there, and everything fits', async () => {
      const frame = await busyScreen(columns, rows, colour);
      const lines = frame.split('\n');
      expect(lines).toHaveLength(rows - 1);
      for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(columns);
      if (colour) expect(ui!.rawFrame()).toMatch(colourCodes);
      else expect(ui!.rawFrame()).not.toMatch(colourCodes);

      // header: the store, and the background lane's work (from the backfilled log)
      expect(lines[0]).toMatch(/store redis ok · 3 daemons {2}● live$/);
      expect(lines[1]).toContain('background 1/min (1 skipped)');

      // seats: sparkline, then the gauge in the form the width allows, then the state
      const workMax = lineOf(frame, /^ work-max /);
      const personal = lineOf(frame, /^ personal-pro /);
      expect(workMax).toMatch(SPARK);
      // a bucket with failed attempts is dotted, not only coloured
      expect(workMax).toMatch(/[⣀⣤⣶⣿]/);
      expect(personal).toMatch(/[▁▂▃▄▅▆▇█]/);
      if (columns >= 160) expect(workMax).toContain('5h [||||||····] 62% resets 2h14m');
      else if (columns >= 100) expect(workMax).toMatch(/ 5h 62% /);
      else expect(workMax).toMatch(/ (5h )?62% /);
      expect(personal).toMatch(/(5h )?101%/);

      // a quota shows its reset, a cooldown its probe, a rate limit its end
      expect(personal).toMatch(
        columns >= 100 ? new RegExp(`✗ quota +resets ${quotaAt} \\(in 2h14m\\)`) : /✗ quota +resets (in 2h14m|\d\d:\d\d)/,
      );
      expect(workMax).toMatch(/✗ credit +probe in 41s/);
      expect(frame).toMatch(/✗ rate-limit +ends in 3s/);
      // counts named for what they count, and the signal in words, when they fit
      if (columns >= 100) expect(workMax).toContain('probe in 41s · failed again 12');
      if (columns >= 160) {
        expect(workMax).toContain('probe in 41s · failed again 12 · skipped 4 background');
        expect(personal).toContain(`resets ${quotaAt} (in 2h14m) · 429 rate_limit_error`);
      }
      expect(frame).not.toMatch(/\brefused\b/);

      // chains: the spread route says so and shows each target's share of its sessions (3 of 4 on
      // personal-pro, from the backfill); the drained target says it, with no share
      // (`spread` on the route's name row: a failing-open spread route keeps it beside `fail-open`)
      expect(frame).toMatch(/^ haiku spread +✗ quota +personal-pro\/\S+ +share 75% +resets in 2h14m$/m);
      expect(frame).toMatch(/^ fail-open +✗ credit +work-max\/claude-h\S+ +share 25% +probe in 41s$/m);
      expect(frame).toMatch(/^ +○ drained +openrouter\/anthro\S*$/m);

      // names: whole when they fit; cut in the middle, never alike, when they do not
      const at = lines.findIndex((l) => /^.dated /.test(l));
      const datedNames = lines.slice(at, at + 2).map((l) => /work-max\/\S+/.exec(l)?.[0]);
      expect(datedNames.every((n) => n !== undefined)).toBe(true);
      expect(datedNames[0]).not.toBe(datedNames[1]);
      if (columns >= 160) {
        expect(frame).not.toContain('…');
        expect(datedNames).toEqual(DATED.map((m) => `work-max/${m}`));
      } else if (columns === 80) {
        expect(datedNames.every((n) => n!.includes('…'))).toBe(true);
      }

      // the log starts with the daemon's history, not "waiting for requests"
      expect(frame).not.toContain('waiting for requests');
      expect(frame).toMatch(/work-max probe 400 → personal-pro\S* 429/);
      expect(frame).toContain('(fail-open)');
    });
  });
});
