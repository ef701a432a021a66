import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ChainsPanel } from '../../src/top/ui/components/ChainsPanel.js';
import { DecisionLogPanel } from '../../src/top/ui/components/DecisionLogPanel.js';
import { Footer } from '../../src/top/ui/components/Footer.js';
import { HeaderPanel } from '../../src/top/ui/components/HeaderPanel.js';
import { SeatsPanel } from '../../src/top/ui/components/SeatsPanel.js';
import { ThemeContext } from '../../src/top/ui/components/theme-context.js';
import { seatRows } from '../../src/top/ui/lines/seat-lines.js';
import { FOLLOWING } from '../../src/top/ui/log-view.js';
import { createTheme } from '../../src/top/ui/theme.js';
import {
  ANTHROPIC,
  breaker,
  decision,
  failoverDecision,
  INFLUENCE_OFF,
  providerSubject,
  seatSubject,
  snapshotOf,
  troubledBreakers,
  troubledSnapshot,
} from './support/fixtures.js';
import { stateFrom } from './support/state.js';

/** Each panel on its own, from a fixed snapshot, through ink-testing-library. */
const NOW = new Date(2025, 0, 15, 14, 3, 7).getTime();
const CLOCK = { now: NOW, stale: false };
const noShares = new Map();

function frameOf(node: ReactElement): string {
  const { lastFrame } = render(<ThemeContext.Provider value={createTheme({ colour: false })}>{node}</ThemeContext.Provider>);
  return lastFrame() ?? '';
}

afterEach(() => cleanup());

describe('header', () => {
  test('daemon URL, uptime, rates, influence and connection', () => {
    const frame = frameOf(<HeaderPanel state={stateFrom(troubledSnapshot(NOW))} width={100} scene={null} />);
    expect(frame).toContain('http://127.0.0.1:4141');
    expect(frame).toContain('up 5m12s');
    expect(frame).toContain('2.5 req/s');
    expect(frame).toContain('3 fail-overs/min');
    expect(frame).toContain('influence on');
    expect(frame).toContain('● live');
  });

  test('says a lost connection in words', () => {
    const state = stateFrom(troubledSnapshot(NOW), {
      connection: { kind: 'disconnected', reason: 'daemon stopped', retryAt: NOW + 2000, since: NOW - 500 },
    });
    expect(frameOf(<HeaderPanel state={state} width={100} scene={null} />)).toContain('✗ disconnected — retrying in 2s');
  });

  test('influence off is said, with what it means', () => {
    const snapshot = snapshotOf({ now: NOW, influence: INFLUENCE_OFF });
    expect(frameOf(<HeaderPanel state={stateFrom(snapshot)} width={100} scene={null} />)).toContain('influence off (order never changes)');
  });
});

describe('chains', () => {
  test('each route with its targets in try order, state as glyph and word, countdowns', () => {
    const state = stateFrom(troubledSnapshot(NOW));
    const frame = frameOf(
      <ChainsPanel routes={state.routes} clock={CLOCK} shares={noShares} width={100} height={8} selectedKey={null} greyed={false} />,
    );
    const rows = frame.split('\n');
    expect(rows[0]).toMatch(/^─ CHAINS {2}order a request tries now ─+$/);
    expect(rows[1]).toMatch(/^ sonnet +● healthy +personal-pro\/claude-sonnet-4-5$/);
    expect(rows[2]).toMatch(/^ +✗ credit +work-max\/claude-sonnet-4-5 +probe in 3m05s$/);
    expect(rows[3]).toMatch(/^ +✗ rate-limit +openrouter\/anthropic\/claude-sonnet-4\.5 +ends in 42s$/);
    expect(rows[4]).toMatch(/^ opus +✗ credit +work-max\/claude-opus-4-1 +probe in 3m05s$/);
    expect(rows[5]).toMatch(/^ +fail-open +✗ errors +personal-pro\/claude-opus-4-1 +probe in 55s$/);
    expect(rows[6]).toMatch(/^ codex +✗ rate-limit +openrouter\/openai\/gpt-5-codex +ends in 42s$/);
  });

  test('probe-ready and probe-in-flight read differently', () => {
    const [credit, limit, errors] = troubledBreakers(NOW);
    const breakers = [
      { ...credit!, phase: 'probing' as const, until: NOW - 1, claimed_at: NOW - 1 },
      limit!,
      { ...errors!, phase: 'probe_ready' as const, until: NOW - 1 },
    ];
    const state = stateFrom(snapshotOf({ now: NOW, breakers }));
    const frame = frameOf(
      <ChainsPanel routes={state.routes} clock={CLOCK} shares={noShares} width={100} height={8} selectedKey={null} greyed={false} />,
    );
    expect(frame).toMatch(/◐ credit +work-max\/claude-sonnet-4-5 +probing/);
    expect(frame).toMatch(/◌ errors +personal-pro\/claude-opus-4-1 +probe ready/);
  });

  test('too many rows: a window around the selection, with its range in the title', () => {
    const state = stateFrom(troubledSnapshot(NOW));
    const selectedKey = 'chain:codex:openrouter/openai/gpt-5-codex';
    const frame = frameOf(
      <ChainsPanel routes={state.routes} clock={CLOCK} shares={noShares} width={100} height={3} selectedKey={selectedKey} greyed={false} />,
    );
    expect(frame.split('\n')[0]).toMatch(/4-6 of 6$/);
    expect(frame).toContain('›codex');
  });
});

describe('seats', () => {
  test('breakers with what failed again, per seat and per model', () => {
    const state = stateFrom(troubledSnapshot(NOW));
    const frame = frameOf(
      <SeatsPanel
        rows={seatRows(state.seats, { clock: CLOCK, timeOfDay: () => '16:17' })}
        now={NOW}
        width={100}
        height={6}
        selectedKey={null}
        greyed={false}
      />,
    );
    const rows = frame.split('\n');
    expect(rows[0]).toMatch(/^─ SEATS {2}breakers · last 2 min · usage ─+$/);
    expect(rows[1]).toMatch(/^ work-max +✗ credit +probe in 3m05s · failed again 4 · 1 failed probe$/);
    expect(rows[2]).toMatch(/^ personal-pro +● healthy +anthropic$/);
    expect(rows[3]).toMatch(/^ └ claude-opus-4-1 +✗ errors +probe in 55s · failed again 2$/);
    expect(rows[4]).toMatch(/^ openrouter +✗ rate-limit +ends in 42s · failed again 1$/);
  });

  test('every kind of breaker in words: quota, key rejected, provider errors (on each seat of that upstream)', () => {
    const breakers = [
      breaker('quota', seatSubject('work-max'), { since: NOW, until: NOW + 8_040_000, refused_count: 3 }),
      breaker('key_rejected', seatSubject('openrouter'), { since: NOW, until: NOW + 60_000 }),
      breaker('errors', providerSubject(ANTHROPIC, 'claude-opus-4-1'), { since: NOW, until: NOW + 9000, phase: 'open' }),
    ];
    const state = stateFrom(snapshotOf({ now: NOW, breakers }));
    const frame = frameOf(
      <SeatsPanel
        rows={seatRows(state.seats, { clock: CLOCK, timeOfDay: () => '16:17' })}
        now={NOW}
        width={100}
        height={6}
        selectedKey={null}
        greyed={false}
      />,
    );
    const rows = frame.split('\n');
    expect(rows[1]).toMatch(/^ work-max +✗ quota +resets 16:17 \(in 2h14m\) · failed again 3$/);
    expect(rows[2]).toMatch(/^ └ claude-opus-4-1 +✗ provider errors +probe in 9s$/);
    expect(rows[3]).toMatch(/^ personal-pro +● healthy +anthropic$/);
    expect(rows[4]).toMatch(/^ └ claude-opus-4-1 +✗ provider errors +probe in 9s$/);
    expect(rows[5]).toMatch(/^ openrouter +✗ key rejected +probe in 1m00s$/);
  });
});

describe('drained targets', () => {
  test('a weight-0 target sits last in its chain and says drained', () => {
    const routes = [
      {
        model: 'sonnet',
        chain: [
          { seat: 'work-max', model: 'claude-sonnet-4-5', weight: 0 },
          { seat: 'personal-pro', model: 'claude-sonnet-4-5' },
        ],
      },
    ];
    const state = stateFrom(snapshotOf({ now: NOW, routes }));
    const frame = frameOf(
      <ChainsPanel routes={state.routes} clock={CLOCK} shares={noShares} width={100} height={3} selectedKey={null} greyed={false} />,
    );
    const rows = frame.split('\n');
    expect(rows[1]).toMatch(/^ sonnet +● healthy +personal-pro\/claude-sonnet-4-5$/);
    expect(rows[2]).toMatch(/^ +○ drained +work-max\/claude-sonnet-4-5$/);
  });
});

describe('decision log', () => {
  test('time, route, status, ms and the attempt path, newest last', () => {
    const decisions = [decision({ ts: NOW - 2000 }), failoverDecision(NOW)];
    const state = stateFrom(troubledSnapshot(NOW), { decisions });
    const frame = frameOf(
      <DecisionLogPanel
        decisions={state.decisions}
        total={2}
        filter=""
        view={FOLLOWING}
        focused={false}
        width={100}
        height={4}
        greyed={false}
      />,
    );
    const rows = frame.split('\n');
    expect(rows[0]).toMatch(/^─ DECISIONS {2}following ─+$/);
    expect(rows[1]).toBe(' 14:03:05 sonnet 200 652ms personal-pro/claude-sonnet-4-5 ok');
    expect(rows[2]).toBe(' 14:03:07 sonnet 200 812ms work-max 402 → personal-pro/claude-sonnet-4-5 ok');
  });

  test('says it is waiting before the first request', () => {
    const frame = frameOf(
      <DecisionLogPanel decisions={[]} total={0} filter="" view={FOLLOWING} focused={false} width={100} height={4} greyed={false} />,
    );
    expect(frame).toContain('waiting for requests…');
  });
});

describe('footer', () => {
  test('the keys from the keymap', () => {
    const ctx = {
      connected: true,
      influenceEnabled: true,
      hasSelection: true,
      filterActive: false,
      paused: false,
      focus: 'upper' as const,
      sessionsShown: false,
    };
    expect(frameOf(<Footer mode="main" ctx={ctx} width={100} />)).toBe(
      ' ↑↓ select  Tab log  r reset  P probe  R reset all  p pause  / filter  S sessions  ? help  q quit',
    );
    // in the log: its own keys first; what does not fit gives way, help and quit stay
    expect(frameOf(<Footer mode="main" ctx={{ ...ctx, focus: 'log' }} width={100} />)).toBe(
      ' ↑↓ select  PgUp/Dn page  G newest  Enter explain  Tab chains  R reset all  p pause  ? help  q quit',
    );
  });
});
