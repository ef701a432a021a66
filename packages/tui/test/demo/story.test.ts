import { describe, expect, it } from 'vitest';
import { goDuration, usageHeaders } from '../../src/demo/providers/usage-headers.js';
import { DEFAULT_SCENARIO_FILE, formatScenarioIssue, loadScenario, parseScenario } from '../../src/demo/scenario/load.js';
import { longestQuiet, sceneAt, scenesSince, sceneWords } from '../../src/demo/scenario/scenes.js';
import type { Scenario } from '../../src/demo/scenario/schema.js';
import { behaviourAt } from '../../src/demo/scenario/timeline.js';
import { usageAt } from '../../src/demo/scenario/usage-curve.js';

/** The demo's story: scenes in words, usage curves, a spent window, and a screen never idle for more than 10 s. */
const STORY = `
repeat_every: 60
seats:
  - id: seat-b
    provider: anthropic
    models: [claude-sonnet-5]
    usage:
      window: 5h
      points: [[0, 0.5], [30, 1.01], [45, 1.01], [45, 0.04], [60, 0.5]]
      resets_at: 45
    timeline:
      - { phase: quota_out, from: 30, to: 45 }
      - { phase: quota_out, from: 50, to: 55, resets: 600 }
routes:
  - model: sonnet
    chain: [seat-b/claude-sonnet-5]
scenes:
  - { at: 0, say: 'all healthy' }
  - { at: 30, say: 'seat-b used up its window' }
  - { at: 50, say: 'a weekly window this time' }
`;

function scenarioOf(text: string): Scenario {
  const result = parseScenario(text, 'story.yaml');
  if (!result.ok) throw new Error(result.issues.map(formatScenarioIssue).join('\n'));
  return result.scenario;
}

describe('scenes', () => {
  const s = scenarioOf(STORY);

  it('say which scene plays, out of how many', () => {
    expect(sceneWords(sceneAt(s, 12)!)).toBe('scene 1/3: all healthy');
    expect(sceneWords(sceneAt(s, 31)!)).toBe('scene 2/3: seat-b used up its window');
  });

  it('say that the story starts again when it replays, then which play it is', () => {
    expect(sceneWords(sceneAt(s, 62)!)).toBe('the story starts again (loop 2) · scene 1/3: all healthy');
    expect(sceneWords(sceneAt(s, 95)!)).toBe('loop 2 · scene 2/3: seat-b used up its window');
  });

  it('are refused out of order or past the replay', () => {
    const bad = STORY.replace("{ at: 50, say: 'a weekly window this time' }", "{ at: 20, say: 'too early' }\n  - { at: 70, say: 'never' }");
    const result = parseScenario(bad, 'bad.yaml');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues.map(formatScenarioIssue)).toEqual([
        'bad.yaml: scenes[2].at: scenes must be in time order (line 20)',
        'bad.yaml: scenes[3].at: never plays: repeat_every is 60 (line 21)',
      ]);
    }
  });
});

describe('a spent window and the usage a seat reports', () => {
  const s = scenarioOf(STORY);
  const seat = s.seats[0]!;

  it('answers quota_out until the phase ends, or for a stated time', () => {
    expect(behaviourAt(seat, 'claude-sonnet-5', 33, 60)).toEqual({ kind: 'quota_out', resetInSecs: 12 });
    expect(behaviourAt(seat, 'claude-sonnet-5', 52, 60)).toEqual({ kind: 'quota_out', resetInSecs: 600 });
  });

  it('follows its usage curve, steps down at the reset, and counts to the next reset across replays', () => {
    expect(usageAt(seat.usage!, 15, 60)).toEqual({ utilization: 0.755, resetInSecs: 30 });
    expect(usageAt(seat.usage!, 40, 60)).toEqual({ utilization: 1.01, resetInSecs: 5 });
    expect(usageAt(seat.usage!, 45, 60).utilization).toBe(0.04);
    expect(usageAt(seat.usage!, 50, 60).resetInSecs).toBe(55);
    expect(usageAt(seat.usage!, 75, 60)).toEqual({ utilization: 0.755, resetInSecs: 30 });
  });

  it('is reported in the headers the daemon reads: unified windows for Anthropic, request counts for OpenAI', () => {
    expect(usageHeaders('anthropic', { window: '5h', utilization: 0.86, resetAt: 1_764_590_000, resetInSecs: 30 })).toEqual({
      'anthropic-ratelimit-unified-status': 'allowed_warning',
      'anthropic-ratelimit-unified-reset': '1764590000',
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-utilization': '0.86',
      'anthropic-ratelimit-unified-5h-reset': '1764590000',
      'anthropic-ratelimit-unified-5h-status': 'allowed_warning',
    });
    expect(usageHeaders('openai', { window: '5h', utilization: 0.25, resetAt: 0, resetInSecs: 366 })).toEqual({
      'x-ratelimit-limit-requests': '5000',
      'x-ratelimit-remaining-requests': '3750',
      'x-ratelimit-reset-requests': '6m6s',
    });
    expect([goDuration(0.012), goDuration(1), goDuration(3723)]).toEqual(['12ms', '1s', '1h2m3s']);
  });
});

describe('the default story', () => {
  it('never leaves the screen without something happening for more than 10 s, and has a scene for it', async () => {
    const loaded = await loadScenario(DEFAULT_SCENARIO_FILE);
    if (!loaded.ok) throw new Error(loaded.issues.map(formatScenarioIssue).join('\n'));
    expect(longestQuiet(loaded.scenario)).toBeLessThanOrEqual(10);
    expect(loaded.scenario.scenes.length).toBeGreaterThanOrEqual(8);
    // the subscription and the OpenAI key report their usage on every answer
    expect(loaded.scenario.seats.filter((seat) => seat.usage !== undefined).map((seat) => seat.id)).toEqual(['seat-b', 'seat-c']);
    expect(loaded.scenario.seats.flatMap((seat) => seat.models)).toEqual(
      expect.arrayContaining(['claude-sonnet-5', 'claude-haiku-4-5', 'gpt-5', 'gpt-5-mini']),
    );
  });

  it('finds a long quiet stretch in a story that has one', () => {
    const quiet = scenarioOf(STORY.replace("  - { at: 30, say: 'seat-b used up its window' }\n", ''));
    // scenes at 0 and 50, phases 30–45 and 50–55: the first 30 seconds are quiet
    expect(longestQuiet(quiet)).toBe(30);
  });
});

describe('scenes named once each, however late the log looks', () => {
  const scenario = {
    repeat_every: 60,
    scenes: [
      { at: 0, say: 'a' },
      { at: 2, say: 'b' },
      { at: 10, say: 'c' },
    ],
  };
  it('a look that comes late names every scene that began since the last one', () => {
    const first = sceneAt(scenario, 0)!;
    expect(scenesSince(scenario, null, first).map((s) => `${s.loop}:${s.index}`)).toEqual(['1:1']);
    const late = sceneAt(scenario, 11)!;
    expect(scenesSince(scenario, first, late).map((s) => `${s.loop}:${s.index}:${s.say}`)).toEqual(['1:2:b', '1:3:c']);
    const replay = sceneAt(scenario, 63)!;
    expect(scenesSince(scenario, late, replay).map((s) => `${s.loop}:${s.index}`)).toEqual(['2:1', '2:2']);
  });
  it('a first look that comes late still names the story from its first scene', () => {
    const lateFirst = sceneAt(scenario, 3)!;
    expect(scenesSince(scenario, null, lateFirst).map((s) => `${s.loop}:${s.index}:${s.say}`)).toEqual(['1:1:a', '1:2:b']);
    // attached during a replay: that play's scenes, not the whole history
    expect(scenesSince(scenario, null, sceneAt(scenario, 63)!).map((s) => `${s.loop}:${s.index}`)).toEqual(['2:1', '2:2']);
  });
});
