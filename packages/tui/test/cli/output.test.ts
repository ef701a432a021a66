import type { Attempt, DecisionEvent } from '@routeplane/shared';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { colourFor } from '../../src/output/colour.js';
import { decisionSegments } from '../../src/output/decision-line.js';
import { paint, segmentsText } from '../../src/output/segment.js';
import { textWidth } from '../../src/output/text.js';
import { timeOrDateTime } from '../../src/output/time-words.js';

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
  cost: null,
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

  it('with identity, ends with the client and the first 8 hex of the session, whichever it knows', () => {
    const served = [attempt('team', 'claude', 'ok', 200)];
    const both = decision(served, { client: 'claude-cli/2.1.197', session: '3f9a2c1b7d6e' });
    expect(text(both, { identity: true })).toBe('14:03:07 sonnet       200   353ms team/claude ok · claude-cli/2.1.197 3f9a2c1b');
    expect(text(decision(served, { client: null, session: '3f9a2c1b7d6e' }), { identity: true })).toMatch(/ ok · 3f9a2c1b$/);
    expect(text(decision(served, { client: 'OpenAI/JS 6.49.0', session: null }), { identity: true })).toMatch(/ ok · OpenAI\/JS 6\.49\.0$/);
    expect(text(decision(served, { client: null, session: null }), { identity: true })).toMatch(/ team\/claude ok$/);
    expect(text(both)).toMatch(/ team\/claude ok$/);
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

describe('the decision line as logs prints it: every attempt named in full, the date when not today', () => {
  const failover = decision(
    [attempt('work-max', 'claude-sonnet-4-5', 'http_402', 402), attempt('personal-pro', 'claude-sonnet-4-5-20250929', 'ok', 200)],
    { served_by: 'personal-pro/claude-sonnet-4-5-20250929' },
  );

  it('names the seat and model of every attempt, probe and fail-open marked', () => {
    expect(text(failover, { everyModel: true })).toBe(
      '14:03:07 sonnet       200   353ms work-max/claude-sonnet-4-5 402 → personal-pro/claude-sonnet-4-5-20250929 ok',
    );
    const probe = decision([attempt('max-a', 'claude', 'ok', 200)], {
      chain: [{ seat: 'max-a', model: 'claude', state: 'probe', reason: 'credit', pinned: false, left_ms: null }],
      served_by: 'max-a/claude',
    });
    expect(text(probe, { everyModel: true })).toMatch(/ max-a\/claude probe ok$/);
    const failOpen = decision([attempt('team', 'haiku-x', 'http_5xx', 500), attempt('rl', 'haiku-x', 'http_429', 429)], {
      fail_open: true,
      status: 429,
      served_by: 'rl/haiku-x',
    });
    expect(text(failOpen, { everyModel: true })).toMatch(/ team\/haiku-x 500 → rl\/haiku-x 429 \(fail-open\)$/);
  });

  it('at any width: every long model is cut alike, in its middle, before the line itself is cut', () => {
    for (const width of [100, 90, 80, 73]) {
      const line = text(failover, { everyModel: true, width });
      expect(textWidth(line), line).toBeLessThanOrEqual(width);
      // both attempts still say seat/model: no entry loses its model while another keeps it
      expect(line, `width ${width}`).toMatch(/ work-max\/\S+ 402 → personal-pro\/\S+ ok$/);
    }
    expect(text(failover, { everyModel: true, width: 80 })).toBe(
      '14:03:07 sonnet       200   353ms work-max/cla…4-5 402 → personal-pro/cla…929 ok',
    );
    // narrower than the seats themselves: the line ends in …, the models cut as far as they go
    expect(text(failover, { everyModel: true, width: 64 })).toBe('14:03:07 sonnet       200   353ms work-max/c…5 402 → personal-p…');
  });

  it('carries the date when the decision was not made today', () => {
    const now = new Date(2025, 0, 2, 9, 0, 0).getTime();
    expect(text(failover, { everyModel: true, time: timeOrDateTime(now) })).toMatch(/^2025-01-01 14:03:07 sonnet /);
    const today = new Date(2025, 0, 1, 23, 59, 0).getTime();
    expect(text(failover, { everyModel: true, time: timeOrDateTime(today) })).toMatch(/^14:03:07 sonnet /);
  });
});
