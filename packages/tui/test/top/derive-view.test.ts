import { describe, expect, test } from 'vitest';
import { applyEvent, modelOf } from '../../src/top/store/daemon-model.js';
import { routeViews, seatViews } from '../../src/top/store/derive-view.js';
import { breakerDetail, stateDetail } from '../../src/top/ui/lines/state-words.js';
import {
  ANTHROPIC,
  breaker,
  breakerEvent,
  MEMORY_STORE,
  OPENROUTER,
  providerSubject,
  seatSubject,
  snapshotOf,
  targetSubject,
  troubledSnapshot,
} from './support/fixtures.js';

const NOW = 1_700_000_000_000;
const names = (chain: readonly { seat: string; model: string }[]) => chain.map((t) => `${t.seat}/${t.model}`);

describe('the daemon model', () => {
  test('a snapshot gives the model its seq, configured chains and breakers by key', () => {
    const model = modelOf({ ...troubledSnapshot(NOW), seq: 7 });
    expect(model.seq).toBe(7);
    expect([...model.breakers.keys()]).toEqual(['credit:work-max', 'rate_limit:openrouter', 'errors:personal-pro/claude-opus-4-1']);
    // the configured order, whatever order the snapshot's chains are in now
    expect(model.routes[0]!.chain.map((e) => `${e.index}:${e.seat}`)).toEqual(['1:personal-pro', '0:work-max', '2:openrouter']);
    expect(model.routes.find((r) => r.model === 'opus')!.chain.map((e) => e.index)).toEqual([0, 1]);
  });

  test('an event at or below its seq changes nothing (the same model comes back)', () => {
    const model = modelOf({ ...snapshotOf({ now: NOW }), seq: 5 });
    const credit = breaker('credit', seatSubject('work-max'), { since: NOW, until: NOW + 1000 });
    expect(applyEvent(model, breakerEvent(5, NOW, 'tripped', credit))).toBe(model);
    expect(applyEvent(model, breakerEvent(4, NOW, 'tripped', credit))).toBe(model);
    const next = applyEvent(model, breakerEvent(6, NOW, 'tripped', credit));
    expect(next.seq).toBe(6);
    expect(next.breakers.get('credit:work-max')).toEqual(credit);
    expect(model.breakers.size).toBe(0); // the old model is untouched
    const ended = applyEvent(next, breakerEvent(7, NOW, 'cleared', credit));
    expect(ended.breakers.size).toBe(0);
    const stored = applyEvent(ended, { type: 'store', seq: 8, ts: NOW, store: { ...MEMORY_STORE, state: 'degraded' } });
    expect(stored.store.state).toBe('degraded');
  });
});

describe('views', () => {
  test('chains as the daemon would order them now, and fail-open when nothing may be tried', () => {
    const snapshot = troubledSnapshot(NOW);
    const routes = routeViews(modelOf(snapshot));
    expect(names(routes[0]!.chain)).toEqual([
      'personal-pro/claude-sonnet-4-5',
      'work-max/claude-sonnet-4-5',
      'openrouter/anthropic/claude-sonnet-4.5',
    ]);
    expect(routes.map((r) => r.failOpen)).toEqual([false, true, true]);
    expect(routes[0]!.chain[1]).toMatchObject({ state: 'tripped', reasons: ['credit'], until: NOW + 185_000, index: 0 });
  });

  test('a probe-ready breaker is usable: the route does not fail open', () => {
    const ready = breaker('errors', targetSubject('openrouter', 'openai/gpt-5-codex'), { since: NOW, until: NOW, phase: 'probe_ready' });
    const [, , codex] = routeViews(modelOf(snapshotOf({ now: NOW, breakers: [ready] })));
    expect(codex).toMatchObject({ failOpen: false, chain: [{ state: 'probe_ready', reasons: ['model_errors'] }] });
  });

  test('while the shared store is degraded a probe cannot be claimed: probe-ready orders as tripped, and alone it fails open', () => {
    const breakers = [
      breaker('credit', seatSubject('work-max'), { since: NOW, until: NOW, phase: 'probe_ready' }),
      breaker('errors', targetSubject('openrouter', 'openai/gpt-5-codex'), { since: NOW, until: NOW, phase: 'probe_ready' }),
    ];
    const ok = modelOf(snapshotOf({ now: NOW, breakers }));
    expect(names(routeViews(ok)[0]!.chain)[0]).toBe('work-max/claude-sonnet-4-5');
    expect(routeViews(ok)[2]!.failOpen).toBe(false);

    const degraded = applyEvent(ok, { type: 'store', seq: 1, ts: NOW, store: { ...MEMORY_STORE, state: 'degraded' } });
    const [sonnet, , codex] = routeViews(degraded);
    expect(names(sonnet!.chain)).toEqual([
      'personal-pro/claude-sonnet-4-5',
      'openrouter/anthropic/claude-sonnet-4.5',
      'work-max/claude-sonnet-4-5',
    ]);
    expect(sonnet!.chain[2]).toMatchObject({ state: 'probe_ready' });
    expect(codex).toMatchObject({ failOpen: true, chain: [{ state: 'probe_ready' }] });
  });

  test('each seat lists its own breakers, seat-wide first, then by its models; provider breakers where they apply', () => {
    const breakers = [
      breaker('errors', targetSubject('work-max', 'claude-opus-4-1'), { since: NOW }),
      breaker('errors', providerSubject(ANTHROPIC, 'claude-sonnet-4-5'), { since: NOW }),
      breaker('rate_limit', seatSubject('work-max'), { since: NOW, until: NOW + 5000 }),
      breaker('credit', seatSubject('work-max'), { since: NOW }),
      breaker('errors', providerSubject(OPENROUTER, 'claude-sonnet-4-5'), { since: NOW }),
    ];
    const seats = seatViews(modelOf(snapshotOf({ now: NOW, breakers })));
    expect(seats.map((s) => [s.id, s.breakers.map((b) => b.key)])).toEqual([
      [
        'work-max',
        ['credit:work-max', 'rate_limit:work-max', `errors:provider:${ANTHROPIC}/claude-sonnet-4-5`, 'errors:work-max/claude-opus-4-1'],
      ],
      ['personal-pro', [`errors:provider:${ANTHROPIC}/claude-sonnet-4-5`]],
      // openrouter serves no model called claude-sonnet-4-5: that provider breaker does not touch it
      ['openrouter', []],
    ]);
  });
});

describe('countdown words', () => {
  const at = { now: NOW, stale: false };
  test('`ends in` for a rate limit, `resets in` for a quota, `probe in` once anything needs a probe; phases in words', () => {
    expect(stateDetail('tripped', ['rate_limit'], NOW + 42_000, at)).toBe('ends in 42s');
    expect(stateDetail('tripped', ['credit', 'rate_limit'], NOW + 185_000, at)).toBe('probe in 3m05s');
    expect(stateDetail('tripped', ['quota'], NOW + 8_040_000, at)).toBe('resets in 2h14m');
    expect(stateDetail('tripped', ['quota', 'model_errors'], NOW + 8_040_000, at)).toBe('probe in 2h14m');
    // a partial second counts up: 41.2 s left still reads 42s; past the deadline it reads 0s until the daemon says more
    expect(stateDetail('tripped', ['credit'], NOW + 41_200, at)).toBe('probe in 42s');
    expect(stateDetail('tripped', ['credit'], NOW - 5000, at)).toBe('probe in 0s');
    expect(stateDetail('probe_ready', ['credit'], NOW, at)).toBe('probe ready');
    expect(stateDetail('probing', ['credit'], null, at)).toBe('probing');
    expect(stateDetail('drained', [], null, at)).toBe('');
    expect(breakerDetail('quota', 'open', NOW + 3_720_000, at)).toBe('resets in 1h02m');
    expect(breakerDetail('rate_limit', 'open', NOW + 3000, at)).toBe('ends in 3s');
    expect(breakerDetail('credit', 'open', null, at)).toBe('tripped');
  });

  test('while disconnected a countdown stops where it was and says so', () => {
    const lost = { now: NOW, stale: true };
    expect(stateDetail('tripped', ['credit'], NOW + 41_000, lost)).toBe('probe in 41s (stale)');
    expect(breakerDetail('rate_limit', 'open', NOW + 3000, lost)).toBe('ends in 3s (stale)');
  });
});
