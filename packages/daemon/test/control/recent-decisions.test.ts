import { type DecisionEvent, RECENT_MAX, type UnstampedEvent } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { RecentDecisions } from '../../src/events/recent-decisions.js';

function decision(n: number): UnstampedEvent {
  return {
    type: 'decision',
    request_id: `r${n}`,
    route: 'sonnet',
    family: 'anthropic',
    stream: true,
    chain: [{ seat: 'a', model: 'm', state: 'healthy', reason: null, pinned: false, left_ms: null }],
    attempts: [{ seat: 'a', model: 'm', outcome: 'ok', status: 200, ms: 12, evidence: 'ok', signal: null, retry: 0 }],
    served_by: 'a/m',
    status: 200,
    duration_ms: 12,
    fail_open: false,
    requested: 'claude-sonnet-4-5-20250929',
    agent: null,
    lane: 'foreground',
    session: 'abcdef012345',
    balance: 'spread',
    skipped: false,
    usage: { input_tokens: 4, output_tokens: 9, cache_read_tokens: null, cache_write_tokens: null },
    client: 'claude-cli/2.1.197',
  } as unknown as UnstampedEvent;
}

describe('recent decisions', () => {
  it('gives back the last decisions as they were emitted, oldest first, and only decisions', () => {
    const bus = new EventBus(() => 1_000);
    const recent = new RecentDecisions(bus);
    const emitted: DecisionEvent[] = [];
    for (let n = 0; n < 3; n++) {
      emitted.push(bus.emit(decision(n)) as DecisionEvent);
      bus.emit({ type: 'reload', ok: true } as unknown as UnstampedEvent);
    }
    expect(recent.last()).toEqual(emitted);
    expect(recent.last(2)).toEqual(emitted.slice(1));
    recent.stop();
  });

  it('keeps the last RECENT_MAX once more went by', () => {
    const bus = new EventBus(() => 1_000);
    const recent = new RecentDecisions(bus);
    for (let n = 0; n < RECENT_MAX + 7; n++) bus.emit(decision(n));
    const kept = recent.last();
    expect(kept).toHaveLength(RECENT_MAX);
    expect(kept[0]!.request_id).toBe('r7');
    expect(kept.at(-1)!.request_id).toBe(`r${RECENT_MAX + 6}`);
    recent.stop();
  });
});
