import type { DecisionEvent } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { colourFor } from '../../src/output/colour.js';
import { attemptPath, formatDecisionLine } from '../../src/output/decision-line.js';
import { formatRemaining } from '../../src/output/duration.js';

describe('colourFor', () => {
  it('colours a terminal, and nothing when NO_COLOR is set (non-empty) or the stream is not a terminal', () => {
    expect(colourFor({ isTTY: true }, {}, 3).level).toBe(3);
    expect(colourFor({ isTTY: true }, { NO_COLOR: '' }, 3).level).toBe(3);
    expect(colourFor({ isTTY: true }, { NO_COLOR: '1' }, 3).level).toBe(0);
    expect(colourFor({ isTTY: false }, {}, 3).level).toBe(0);
    expect(colourFor({}, {}, 3).level).toBe(0);
    expect(colourFor({ isTTY: true }, { NO_COLOR: 'yes' }, 3).red('x')).toBe('x');
  });
});

describe('formatRemaining', () => {
  it('reads 42s, 3m05s, 1h02m and never shows 0s before the deadline', () => {
    expect(formatRemaining(42_000)).toBe('42s');
    expect(formatRemaining(185_000)).toBe('3m05s');
    expect(formatRemaining(3_725_000)).toBe('1h02m');
    expect(formatRemaining(1)).toBe('1s');
    expect(formatRemaining(59_001)).toBe('1m00s');
    expect(formatRemaining(0)).toBe('0s');
    expect(formatRemaining(-5000)).toBe('0s');
  });
});

const decision = (attempts: DecisionEvent['attempts'], extra: Partial<DecisionEvent> = {}): DecisionEvent => ({
  type: 'decision',
  seq: 1,
  ts: new Date(2025, 0, 1, 14, 3, 7).getTime(),
  request_id: 'r1',
  route: 'sonnet',
  family: 'anthropic',
  stream: false,
  chain: [],
  attempts,
  served_by: 'team/claude',
  status: 200,
  duration_ms: 353,
  fail_open: false,
  ...extra,
});

describe('decision lines', () => {
  it('writes the attempts as a path of seats and outcomes', () => {
    expect(
      attemptPath(
        decision([
          { seat: 'max-a', model: 'claude', outcome: 'http_402', status: 402, ms: 3 },
          { seat: 'team', model: 'claude', outcome: 'ok', status: 200, ms: 300 },
        ]),
      ),
    ).toBe('max-a 402 → team ok');
    expect(
      attemptPath(
        decision([
          { seat: 'team', model: 'opus', outcome: 'http_5xx', status: 503, ms: 3 },
          { seat: 'team', model: 'sonnet', outcome: 'timeout', status: null, ms: 3 },
          { seat: 'other', model: 'sonnet', outcome: 'stream_error', status: 200, ms: 3 },
        ]),
      ),
    ).toBe('team/opus 503 → team/sonnet timeout → other stream error');
    expect(attemptPath(decision([]))).toBe('no attempt');
  });

  it('puts time, route, served_by, path, status and ms on one line', () => {
    const line = formatDecisionLine(
      decision([{ seat: 'team', model: 'claude', outcome: 'ok', status: 200, ms: 300 }]),
      colourFor({ isTTY: false }),
    );
    expect(line).toMatch(/^14:03:07\s+sonnet\s+→ team\/claude\s+team ok\s+200\s+353ms$/);
    expect(line).not.toContain('\n');
  });
});
