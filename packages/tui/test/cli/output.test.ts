import type { Attempt, DecisionEvent } from '@routeplane/shared';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { colourFor } from '../../src/output/colour.js';
import { decisionSegments } from '../../src/output/decision-line.js';
import { paint, segmentsText } from '../../src/output/segment.js';

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

const attempt = (seat: string, model: string, outcome: Attempt['outcome'], status: number | null): Attempt => ({
  seat,
  model,
  outcome,
  status,
  ms: 3,
  evidence: null,
  signal: null,
  retry: 0,
});

const decision = (attempts: Attempt[], extra: Partial<DecisionEvent> = {}): DecisionEvent => ({
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
  requested: 'sonnet',
  agent: null,
  lane: 'foreground',
  session: null,
  balance: 'ordered',
  skipped: false,
  usage: null,
  client: null,
  ...extra,
});

const text = (d: DecisionEvent, options?: Parameters<typeof decisionSegments>[1]) => segmentsText(decisionSegments(d, options));

describe('the decision line (logs, top, the demo)', () => {
  it('writes time, route, status, latency and the attempts as a path, the server in full', () => {
    expect(text(decision([attempt('max-a', 'claude', 'http_402', 402), attempt('team', 'claude', 'ok', 200)]))).toBe(
      '14:03:07 sonnet       200   353ms max-a 402 → team/claude ok',
    );
  });

  it('names the model of a seat tried twice, and says what each outcome was', () => {
    const d = decision(
      [
        attempt('team', 'opus', 'http_5xx', 503),
        attempt('team', 'sonnet', 'timeout', null),
        attempt('other', 'sonnet', 'stream_error', 200),
      ],
      { served_by: null, status: 502 },
    );
    expect(text(d)).toMatch(/ 502 +353ms team\/opus 503 → team\/sonnet timeout → other stream error$/);
  });

  it('marks a probe attempt, a fail-open request and (when asked) a stream', () => {
    const probe = decision([attempt('max-a', 'claude', 'http_402', 402), attempt('team', 'claude', 'ok', 200)], {
      chain: [{ seat: 'max-a', model: 'claude', state: 'probe', reason: 'credit', pinned: false, left_ms: null }],
      stream: true,
    });
    expect(text(probe)).toMatch(/ max-a probe 402 → team\/claude ok$/);
    expect(text(probe, { markStream: true })).toMatch(/ team\/claude ok stream$/);
    expect(text(decision([attempt('team', 'claude', 'http_429', 429)], { fail_open: true, status: 429 }))).toMatch(
      / team\/claude 429 \(fail-open\)$/,
    );
  });

  it('takes the time column and widths from its options, and fits a width', () => {
    const d = decision([attempt('max-a', 'claude', 'http_402', 402), attempt('team', 'claude', 'ok', 200)]);
    expect(text(d, { time: () => '0:12.0', routeWidth: 6, latencyWidth: 5 })).toBe('0:12.0 sonnet 200 353ms max-a 402 → team/claude ok');
    expect(text(d, { width: 44 })).toBe('14:03:07 sonnet       200   353ms max-a 402…');
    expect(text(d, { width: 53 })).toBe('14:03:07 sonnet       200   353ms max-a 402 → team ok');
  });

  it('paints with chalk: colour on a colour terminal, none at level 0', () => {
    const segments = decisionSegments(decision([attempt('team', 'claude', 'ok', 200)]));
    expect(paint(segments, new Chalk({ level: 0 }))).toBe(segmentsText(segments));
    expect(paint(segments, new Chalk({ level: 1 }))).toMatch(/\x1b\[32m200\x1b\[39m/);
  });
});
