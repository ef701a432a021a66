import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO_FILE, formatScenarioIssue, loadScenario, parseScenario } from '../../src/demo/scenario/load.js';
import { behaviourAt } from '../../src/demo/scenario/timeline.js';
import type { Scenario } from '../../src/demo/scenario/schema.js';

const MINIMAL = `
seats:
  - id: seat-a
    provider: anthropic
    models: [claude-sonnet-5]
routes:
  - model: sonnet
    chain: [seat-a/claude-sonnet-5]
`;

function errorsOf(text: string): string[] {
  const result = parseScenario(text, 'bad.yaml');
  if (result.ok) throw new Error('expected the scenario to be rejected');
  return result.issues.map(formatScenarioIssue);
}

function scenarioOf(text: string): Scenario {
  const result = parseScenario(text, 'good.yaml');
  if (!result.ok) throw new Error(result.issues.map(formatScenarioIssue).join('\n'));
  return result.scenario;
}

describe('scenario file', () => {
  it('loads the built-in default scenario', async () => {
    const result = await loadScenario(DEFAULT_SCENARIO_FILE);
    if (!result.ok) throw new Error(result.issues.map(formatScenarioIssue).join('\n'));
    expect(result.scenario.seats.map((s) => s.id)).toEqual(['seat-a', 'seat-b', 'seat-c']);
    expect(result.scenario.routes.map((r) => r.model)).toEqual(['sonnet', 'haiku', 'gpt', 'gpt-mini']);
    expect(result.scenario.repeat_every).toBe(60);
  });

  it('fills the defaults of a minimal scenario', () => {
    const s = scenarioOf(MINIMAL);
    expect(s.influence).toEqual({ enabled: true, cooldown_secs: 8, max_cooldown_secs: 60, trip_threshold: 3, window_secs: 30 });
    expect(s.agents.stream_share).toBe(0.6);
    expect(s.seats[0]?.timeline).toEqual([]);
    expect(s.routes[0]?.weight).toBe(1);
  });

  it('names the file, the path and the line of an unknown key', () => {
    const text = MINIMAL.replace('    models: [claude-sonnet-5]', '    models: [claude-sonnet-5]\n    timline: []');
    expect(errorsOf(text)).toEqual(['bad.yaml: seats[0].timline: unknown key (did you mean timeline?) (line 6)']);
  });

  it('rejects an unknown phase, naming where it is', () => {
    const text = MINIMAL.replace(
      '    models: [claude-sonnet-5]',
      '    models: [claude-sonnet-5]\n    timeline:\n      - { phase: explode, from: 1 }',
    );
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^bad\.yaml: seats\[0\]\.timeline\[0\]\.phase: .*(ok|credit_out)/);
  });

  it('checks references and times across the document', () => {
    const text = `
repeat_every: 30
seats:
  - id: seat-a
    provider: openai
    models: [gpt-4o]
    timeline:
      - { phase: server_error, model: gpt-5, from: 1, to: 2 }
      - { phase: credit_out, from: 5, to: 4 }
      - { phase: rate_limited, from: 6 }
      - { phase: slow, from: 31, to: 40 }
  - id: seat-a
    provider: anthropic
    models: [x]
routes:
  - model: gpt
    chain: [seat-a/gpt-4o, seat-z/gpt-4o, seat-a/gpt-9]
  - model: gpt
    weight: 0
    chain: [seat-a/gpt-4o]
`;
    expect(errorsOf(text)).toEqual([
      'bad.yaml: seats[0].timeline[0].model: "gpt-5" is not a model of seat seat-a (models: gpt-4o) (line 8)',
      'bad.yaml: seats[0].timeline[1].to: must be after from (5) (line 9)',
      'bad.yaml: seats[0].timeline[2].to: required when retry_after is phase_end (line 10)',
      'bad.yaml: seats[0].timeline[3].from: never plays: repeat_every is 30 (line 11)',
      'bad.yaml: seats[1].id: duplicate seat id "seat-a" (line 12)',
      'bad.yaml: routes[0].chain[1]: unknown seat "seat-z" (declared: seat-a) (line 17)',
      'bad.yaml: routes[0].chain[2]: "gpt-9" is not a model of seat seat-a (models: gpt-4o) (line 17)',
      'bad.yaml: routes[1].model: duplicate route "gpt" (line 18)',
    ]);
  });

  it('rejects a chain entry that is not seat/model', () => {
    const errors = errorsOf(MINIMAL.replace('[seat-a/claude-sonnet-5]', '[claude-sonnet-5]'));
    expect(errors).toEqual(['bad.yaml: routes[0].chain[0]: expected "seat/model" (line 8)']);
  });

  it('says so when the file is missing or not YAML', async () => {
    const missing = await loadScenario('/nonexistent/scenario.yaml');
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(formatScenarioIssue(missing.issues[0]!)).toBe('/nonexistent/scenario.yaml: file not found');
    expect(errorsOf('seats: [')[0]).toMatch(/^bad\.yaml: invalid YAML: /);
  });
});

describe('behaviourAt', () => {
  const s = scenarioOf(`
repeat_every: 60
seats:
  - id: seat-c
    provider: openai
    models: [gpt-4o, gpt-4o-mini]
    timeline:
      - { phase: server_error, model: gpt-4o, from: 6, to: 12, status: 503 }
      - { phase: rate_limited, from: 15, to: 21 }
      - { phase: rate_limited, from: 30, to: 40, retry_after: 2.5 }
      - { phase: slow, from: 10, to: 20, factor: 3 }
      - { phase: credit_out, from: 50 }
routes:
  - model: gpt
    chain: [seat-c/gpt-4o]
`);
  const seat = s.seats[0]!;

  it('is ok outside every phase', () => {
    expect(behaviourAt(seat, 'gpt-4o', 2, 60)).toEqual({ kind: 'ok', slowFactor: 1 });
  });

  it('applies a model phase to that model only', () => {
    expect(behaviourAt(seat, 'gpt-4o', 6, 60)).toEqual({ kind: 'server_error', status: 503 });
    expect(behaviourAt(seat, 'gpt-4o-mini', 6, 60)).toEqual({ kind: 'ok', slowFactor: 1 });
    expect(behaviourAt(seat, 'gpt-4o', 12, 60)).toEqual({ kind: 'slow', slowFactor: 3 });
  });

  it('lets the first phase covering the moment win', () => {
    expect(behaviourAt(seat, 'gpt-4o', 11, 60)).toEqual({ kind: 'server_error', status: 503 });
    expect(behaviourAt(seat, 'gpt-4o-mini', 11, 60)).toEqual({ kind: 'slow', slowFactor: 3 });
  });

  it('tells a rate limit how long is left, or a fixed Retry-After', () => {
    expect(behaviourAt(seat, 'gpt-4o', 16.5, 60)).toEqual({ kind: 'rate_limited', retryAfterSecs: 4.5 });
    expect(behaviourAt(seat, 'gpt-4o', 35, 60)).toEqual({ kind: 'rate_limited', retryAfterSecs: 2.5 });
  });

  it('replays the timeline every repeat_every seconds', () => {
    expect(behaviourAt(seat, 'gpt-4o', 55, 60)).toEqual({ kind: 'credit_out' });
    expect(behaviourAt(seat, 'gpt-4o', 67, 60)).toEqual({ kind: 'server_error', status: 503 });
    expect(behaviourAt(seat, 'gpt-4o', 67, null)).toEqual({ kind: 'credit_out' });
  });
});
