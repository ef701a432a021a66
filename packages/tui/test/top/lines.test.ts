import type { Key } from 'ink';
import { describe, expect, test } from 'vitest';
import { findBinding, type KeyContext } from '../../src/top/ui/keymap.js';
import { decisionLines, matchesFilter } from '../../src/top/ui/lines/decision-lines.js';
import { footerLine } from '../../src/top/ui/lines/footer-lines.js';
import { lineText, lineWidth } from '../../src/top/ui/lines/line.js';
import { fit, textWidth, truncate } from '../../src/output/text.js';
import { attempt, decision, failoverDecision } from './support/fixtures.js';

const key = (over: Partial<Key> = {}): Key => ({
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
  ...over,
});

const ctx: KeyContext = {
  connected: true,
  influenceEnabled: true,
  hasSelection: true,
  filterActive: false,
  paused: false,
  focus: 'upper',
  sessionsShown: false,
};

describe('text fitting', () => {
  test('cuts with an ellipsis, pads to the column, counts wide characters as two', () => {
    expect(truncate('claude-sonnet-4-5', 10)).toBe('claude-so…');
    expect(fit('abc', 5)).toBe('abc  ');
    expect(fit('abc', 5, 'right')).toBe('  abc');
    expect(textWidth('模型')).toBe(4);
    expect(textWidth('● ✗ ◌ ◐ →')).toBe(9);
  });
});

describe('decision lines in the log', () => {
  const pathOf = (l: ReturnType<typeof decisionLines>[number]) => lineText(l).replace(/^ \S+ \S+ +\d+ +\S+ /, '');

  test('time, route, status, latency, then the attempt path naming the server in full', () => {
    const [line] = decisionLines([{ id: 'r1', event: failoverDecision(new Date(2025, 0, 15, 14, 3, 7).getTime()) }], { width: 100 });
    expect(lineText(line!)).toBe(' 14:03:07 sonnet 200 812ms work-max 402 → personal-pro/claude-sonnet-4-5 ok');
    const timedOut = decision({
      ts: 0,
      attempts: [attempt('work-max', 'm', 'timeout', null, 10), attempt('team', 'm', 'http_5xx', 503, 10)],
      served_by: 'team/m',
      status: 503,
    });
    expect(pathOf(decisionLines([{ id: 'r1', event: timedOut }], { width: 100 })[0]!)).toBe('work-max timeout → team/m 503');
  });

  test('a decision with no attempt says why', () => {
    const unknown = decision({ ts: 0, route: 'nope', attempts: [], served_by: null, status: 404 });
    expect(pathOf(decisionLines([{ id: 'r1', event: unknown }], { width: 100 })[0]!)).toBe('unknown route');
    const noModel = decision({ ts: 0, route: null, attempts: [], served_by: null, status: 400 });
    expect(lineText(decisionLines([{ id: 'r1', event: noModel }], { width: 100 })[0]!)).toMatch(/ — +400 +652ms no model in the request$/);
  });

  test('a filter matches route, seat or status', () => {
    const d = failoverDecision(0);
    expect(matchesFilter(d, 'sonnet')).toBe(true);
    expect(matchesFilter(d, 'WORK-MAX')).toBe(true);
    expect(matchesFilter(d, '402')).toBe(true);
    expect(matchesFilter(d, 'opus')).toBe(false);
  });

  test('a narrow line names the server by seat rather than cut its name; past that it ends in …', () => {
    const entry = { id: 'r1', event: failoverDecision(Date.now()) };
    const [wide] = decisionLines([entry], { width: 100 });
    expect(lineText(wide!)).toMatch(/ work-max 402 → personal-pro\/claude-sonnet-4-5 ok$/);
    const [narrow] = decisionLines([entry], { width: 60 });
    expect(lineText(narrow!)).toMatch(/ work-max 402 → personal-pro ok$/);
    const [tiny] = decisionLines([entry], { width: 40 });
    expect(lineWidth(tiny!)).toBe(40);
    expect(lineText(tiny!).endsWith('…')).toBe(true);
  });
});

describe('keymap', () => {
  test('the same table drives input: arrows and j/k, R, Esc per mode', () => {
    expect(findBinding('main', '', key({ upArrow: true }))?.command).toBe('select-up');
    expect(findBinding('main', 'j', key())?.command).toBe('select-down');
    expect(findBinding('main', 'R', key({ shift: true }))?.command).toBe('reset-all');
    expect(findBinding('main', '', key({ escape: true, meta: true }))?.command).toBe('clear-filter');
    expect(findBinding('confirm', '', key({ return: true }))?.command).toBe('confirm-no');
    expect(findBinding('confirm', 'y', key())?.command).toBe('confirm-yes');
    expect(findBinding('filter', 'j', key())?.command).toBe('filter-type');
    expect(findBinding('filter', '', key({ delete: true }))?.command).toBe('filter-delete');
    // the same key means what the focused pane makes of it
    expect(findBinding('main', 'k', key(), 'log')?.command).toBe('log-up');
    expect(findBinding('main', '', key({ pageUp: true }), 'log')?.command).toBe('log-page-up');
    expect(findBinding('main', '', key({ pageUp: true }), 'upper')).toBeUndefined();
    expect(findBinding('main', 'G', key({ shift: true }), 'log')?.command).toBe('log-newest');
    expect(findBinding('main', '', key({ end: true }), 'log')?.command).toBe('log-newest');
    expect(findBinding('main', '', key({ return: true }), 'log')?.command).toBe('explain');
    expect(findBinding('main', '', key({ tab: true }), 'log')?.command).toBe('switch-focus');
    expect(findBinding('main', 'P', key({ shift: true }))?.command).toBe('probe-selected');
    // q closes whatever is open; only the main view quits
    expect(findBinding('confirm', 'q', key())?.command).toBe('confirm-no');
    expect(findBinding('help', 'q', key())?.command).toBe('close-overlay');
    expect(findBinding('explain', 'q', key())?.command).toBe('close-overlay');
    expect(findBinding('main', 'q', key(), 'log')?.command).toBe('quit');
  });

  test('the footer shows the current mode’s keys from the table, and keeps help and quit when narrow', () => {
    expect(lineText(footerLine('main', ctx, 100))).toBe(
      ' ↑↓ select  Tab log  r reset  P probe  R reset all  p pause  / filter  S sessions  ? help  q quit',
    );
    // with the sessions shown, S says it goes back to the seats
    expect(lineText(footerLine('main', { ...ctx, sessionsShown: true }, 100))).toContain('S seats  ? help');
    expect(lineText(footerLine('main', { ...ctx, paused: true, filterActive: true }, 140))).toContain(
      'p follow  / filter  Esc clear filter',
    );
    const narrow = lineText(footerLine('main', ctx, 30));
    expect(narrow).toContain('? help');
    expect(narrow).toContain('q quit');
    expect(textWidth(narrow)).toBeLessThanOrEqual(30);
  });

  test('disabled keys are dimmed in the footer, not hidden', () => {
    const segments = footerLine('main', { ...ctx, connected: false }, 100).segments;
    const reset = segments.findIndex((s) => s.text === 'reset');
    expect(reset).toBeGreaterThan(0);
    expect(segments[reset]!.tone).toBe('muted');
    expect(segments[reset - 2]!).toEqual({ text: 'r', tone: 'muted' });
  });
});
