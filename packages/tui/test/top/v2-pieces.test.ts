import { describe, expect, test } from 'vitest';
import { distinctCuts, middleCuts, targetCuts, textWidth } from '../../src/output/text.js';
import { isInteractive } from '../../src/top/run.js';
import { ActivityCounter, BUCKETS } from '../../src/top/store/seat-activity.js';
import { SessionShares } from '../../src/top/store/session-shares.js';
import { sparkCells } from '../../src/top/ui/lines/sparkline.js';
import { bindingWindow, gaugeText } from '../../src/top/ui/lines/usage-gauge.js';
import { FOLLOWING, logToNewest, logToOldest, logWindow, moveInLog, togglePause } from '../../src/top/ui/log-view.js';
import { attempt, decision } from './support/fixtures.js';

/** The pure pieces behind monitor v2's elements. */
const NOW = 1_764_576_002_500;

describe('names cut to the width there is', () => {
  test('the distinguishing tail stays: a date, a version', () => {
    expect(middleCuts('claude-sonnet-4-5-20250929', 23)[0]).toBe('claude-sonnet…-20250929');
    expect(middleCuts('claude-sonnet-4-5', 14)[0]).toMatch(/^claude-s\S*…-4-5$/);
    for (const cut of middleCuts('claude-sonnet-4-5-20250929', 12)) expect(textWidth(cut)).toBeLessThanOrEqual(12);
  });

  test('two different names never look the same', () => {
    const names = ['work-max/claude-sonnet-4-5-20250929', 'work-max/claude-sonnet-4-5-20250514', 'work-max/claude-sonnet-4-5'];
    for (const width of [14, 18, 22, 30]) {
      const shown = distinctCuts(names, width, targetCuts);
      expect(new Set(shown.values()).size).toBe(names.length);
      for (const cut of shown.values()) expect(textWidth(cut)).toBeLessThanOrEqual(width);
    }
    // the seat stays whole while it can
    expect(distinctCuts(names, 30, targetCuts).get(names[0]!)).toMatch(/^work-max\/claude-.*…/);
    // names that fit are never cut
    expect(distinctCuts(['a', 'bb'], 2).get('bb')).toBe('bb');
  });
});

describe('the usage gauge', () => {
  const windows = {
    observed_at: NOW,
    windows: [
      { name: '7d', utilization: 0.31, reset_at: null, status: null },
      { name: '5h', utilization: 0.62, reset_at: NOW + 8_040_000, status: 'allowed' },
    ],
    extra_usage: null,
  };
  test('shows the window closest to full, and degrades cleanly', () => {
    const binding = bindingWindow(windows)!;
    expect(binding.name).toBe('5h');
    expect(gaugeText(binding, 'full', NOW)).toBe('5h [||||||····] 62% resets 2h14m');
    expect(gaugeText(binding, 'short', NOW)).toBe('5h 62%');
    expect(gaugeText(binding, 'narrow', NOW)).toBe('62%');
    expect(gaugeText({ ...binding, utilization: 1.01 }, 'full', NOW)).toBe('5h [||||||||||] 101% resets 2h14m');
    expect(bindingWindow(null)).toBeNull();
  });
});

describe('the activity sparkline', () => {
  test('counts attempts per seat in 5 s buckets over 2 minutes; a failure marks its bucket by glyph', () => {
    const counter = new ActivityCounter();
    counter.record(NOW - 1000, [attempt('a', 'm', 'http_5xx', 500, 1), attempt('b', 'm', 'ok', 200, 1)]);
    counter.record(NOW - 11_000, [attempt('b', 'm', 'ok', 200, 1), attempt('b', 'm', 'aborted', null, 1)]);
    counter.record(NOW - 200_000, [attempt('b', 'm', 'ok', 200, 1)]); // older than 2 minutes
    const activity = counter.activity(NOW);
    expect(activity.get('b')).toHaveLength(BUCKETS);
    expect(activity.get('b')!.at(-1)).toEqual({ ok: 1, failed: 0 });
    expect(activity.get('b')!.at(-3)).toEqual({ ok: 1, failed: 0 }); // the aborted attempt says nothing about the seat
    expect(
      activity
        .get('b')!
        .slice(0, -3)
        .every((b) => b.ok + b.failed === 0),
    ).toBe(true);
    const cells = sparkCells(activity.get('a')!, 2)
      .map((c) => c.glyph)
      .join('');
    expect(cells).toBe(`${'·'.repeat(23)}⣤`);
    expect(sparkCells(activity.get('b')!, 1).at(-1)).toEqual({ glyph: '█', failed: false });
  });
});

describe('spread shares', () => {
  test("each target's share of a spread route's sessions in the last 5 minutes", () => {
    const shares = new SessionShares();
    const d = (ts: number, session: string | null, seat: string, balance: 'spread' | 'ordered' = 'spread') =>
      decision({ ts, route: 'haiku', balance, session, served_by: `${seat}/m`, attempts: [attempt(seat, 'm', 'ok', 200, 1)] });
    shares.record(d(NOW - 10_000, 'aaa', 'one'));
    shares.record(d(NOW - 9_000, 'aaa', 'one')); // the same session again: counted once
    shares.record(d(NOW - 8_000, 'bbb', 'two'));
    shares.record(d(NOW - 7_000, null, 'two')); // no session key: a session of its own
    shares.record(d(NOW - 400_000, 'ccc', 'one')); // older than 5 minutes
    shares.record(d(NOW - 1_000, 'ddd', 'one', 'ordered')); // not a spread route
    expect(shares.shares(NOW).get('haiku')).toEqual(
      new Map([
        ['one/m', 1 / 3],
        ['two/m', 2 / 3],
      ]),
    );
  });
});

describe('the log view', () => {
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
  test('follows the newest; moving holds it still on the same decisions; G follows again', () => {
    expect(logWindow(ids, FOLLOWING, 3)).toEqual({ start: 3, end: 6, selected: 5, below: 0 });
    const up = moveInLog(ids, FOLLOWING, 3, -1);
    expect(up).toMatchObject({ follow: false, selectedId: 'e', bottomId: 'f' });
    // new decisions arrive: the view stays on what it showed, and counts what is below
    expect(logWindow([...ids, 'g', 'h'], up, 3)).toEqual({ start: 3, end: 6, selected: 4, below: 2 });
    const pageUp = moveInLog(ids, up, 3, -2);
    expect(pageUp).toMatchObject({ selectedId: 'c', bottomId: 'e' });
    expect(logToOldest(ids, pageUp, 3)).toMatchObject({ selectedId: 'a', bottomId: 'c' });
    expect(logToNewest()).toBe(FOLLOWING);
  });

  test('p holds the log where it is, and follows again', () => {
    const paused = togglePause(ids, FOLLOWING);
    expect(paused).toMatchObject({ follow: false, bottomId: 'f' });
    expect(togglePause(ids, paused)).toBe(FOLLOWING);
  });
});

describe('a terminal that can show the monitor', () => {
  test('needs both ends to be terminals and TERM not dumb', () => {
    expect(isInteractive({ isTTY: true }, { isTTY: true }, { TERM: 'xterm-256color' })).toBe(true);
    expect(isInteractive({ isTTY: true }, { isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(isInteractive({ isTTY: false }, { isTTY: true }, {})).toBe(false);
  });
});
