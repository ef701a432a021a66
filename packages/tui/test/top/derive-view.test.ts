import type { Snapshot } from '@routeplane/shared';
import { describe, expect, test } from 'vitest';
import { applyBreakerEvent } from '../../src/top/store/breaker-model.js';
import { learnRouteOrders } from '../../src/top/store/configured-order.js';
import { deriveRoutes, deriveSeats, deriveTarget } from '../../src/top/store/derive-view.js';
import { breakerEvent, healthySnapshot, troubledSnapshot } from './support/fixtures.js';

const NOW = 1_700_000_000_000;
const MAX = 900_000;
const names = (chain: readonly { seat: string; model: string }[]) => chain.map((t) => `${t.seat}/${t.model}`);

describe('configured order', () => {
  test('is learned exactly from an all-healthy snapshot and kept through partial trouble', () => {
    const exact = learnRouteOrders([], healthySnapshot(NOW));
    expect(exact.every((o) => o.exact)).toBe(true);
    const later = learnRouteOrders(exact, troubledSnapshot(NOW));
    const sonnet = later.find((o) => o.route === 'sonnet')!;
    expect(sonnet.exact).toBe(true);
    expect(names(sonnet.targets)).toEqual(names(healthySnapshot(NOW).routes[0]!.chain));
  });

  test('without an exact order, the current order stands in (right within each group)', () => {
    const guessed = learnRouteOrders([], troubledSnapshot(NOW));
    const sonnet = guessed.find((o) => o.route === 'sonnet')!;
    expect(sonnet.exact).toBe(false);
    expect(names(sonnet.targets)[0]).toBe('personal-pro/claude-sonnet-4-5');
    // all tripped = fail open = configured order: exact
    expect(guessed.find((o) => o.route === 'opus')!.exact).toBe(true);
  });
});

describe('deriving what the screen shows', () => {
  const snapshot: Snapshot = healthySnapshot(NOW);
  const orders = learnRouteOrders([], snapshot);

  test('healthy first, tripped after, each group in configured order', () => {
    let model = applyBreakerEvent(
      snapshot.seats,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_credit', seat: 'work-max', until: NOW + 5000 }),
    );
    model = applyBreakerEvent(
      model,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_rate_limit', seat: 'personal-pro', until: NOW + 9000 }),
    );
    const [sonnet] = deriveRoutes(orders, model, NOW, MAX);
    expect(names(sonnet!.chain)).toEqual([
      'openrouter/anthropic/claude-sonnet-4.5',
      'work-max/claude-sonnet-4-5',
      'personal-pro/claude-sonnet-4-5',
    ]);
    expect(sonnet!.chain[2]).toMatchObject({ phase: 'tripped', deadline: NOW + 9000, deadlineKind: 'rate_limit' });
  });

  test('every target tripped: fail open in configured order', () => {
    const model = applyBreakerEvent(
      snapshot.seats,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'model', seat: 'openrouter', model: 'openai/gpt-5-codex', until: NOW + 5000 }),
    );
    const codex = deriveRoutes(orders, model, NOW, MAX).find((r) => r.route === 'codex')!;
    expect(codex.failOpen).toBe(true);
  });

  test('the deadline passing makes a credit trip probe-ready, without an event', () => {
    const model = applyBreakerEvent(
      snapshot.seats,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_credit', seat: 'work-max', until: NOW + 5000 }),
    );
    const seat = model.find((s) => s.id === 'work-max');
    const ref = { seat: 'work-max', model: 'claude-sonnet-4-5' };
    expect(deriveTarget(seat, ref, NOW + 4999, MAX).phase).toBe('tripped');
    expect(deriveTarget(seat, ref, NOW + 5000, MAX)).toMatchObject({ phase: 'probe_ready', deadline: null });
  });

  test('an active rate limit holds a probe-ready seat back until it ends', () => {
    let model = applyBreakerEvent(
      snapshot.seats,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_credit', seat: 'work-max', until: NOW + 1000 }),
    );
    model = applyBreakerEvent(
      model,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_rate_limit', seat: 'work-max', until: NOW + 8000 }),
    );
    const seat = model.find((s) => s.id === 'work-max');
    const target = deriveTarget(seat, { seat: 'work-max', model: 'claude-opus-4-1' }, NOW + 2000, MAX);
    expect(target).toMatchObject({ phase: 'tripped', reasons: ['credit', 'rate_limit'], deadline: NOW + 8000, deadlineKind: 'rate_limit' });
  });

  test('a claimed probe reads as probing until claim time + max cooldown', () => {
    let model = applyBreakerEvent(
      snapshot.seats,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_credit', seat: 'work-max', until: NOW }),
    );
    model = applyBreakerEvent(model, breakerEvent({ ts: NOW + 10, action: 'probe_claimed', scope: 'seat_credit', seat: 'work-max' }));
    const seat = model.find((s) => s.id === 'work-max');
    const ref = { seat: 'work-max', model: 'claude-opus-4-1' };
    expect(deriveTarget(seat, ref, NOW + 20, MAX).phase).toBe('probing');
    expect(deriveTarget(seat, ref, NOW + 10 + MAX, MAX).phase).toBe('probe_ready');
  });

  test('a rate limit only ever extends', () => {
    let model = applyBreakerEvent(
      snapshot.seats,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_rate_limit', seat: 'work-max', until: NOW + 8000 }),
    );
    model = applyBreakerEvent(
      model,
      breakerEvent({ ts: NOW + 1, action: 'extended', scope: 'seat_rate_limit', seat: 'work-max', until: NOW + 3000 }),
    );
    expect(model.find((s) => s.id === 'work-max')!.rate_limit!.until).toBe(NOW + 8000);
  });

  test('seats list their breakers with refused counts, and near-trip streaks', () => {
    const seats = deriveSeats(troubledSnapshot(NOW).seats, NOW, MAX);
    expect(seats.find((s) => s.id === 'work-max')!.breakers).toEqual([
      { kind: 'credit', phase: 'tripped', refused: 4, failedProbes: 1, deadline: NOW + 185_000 },
    ]);
    expect(seats.find((s) => s.id === 'openrouter')!.breakers).toEqual([{ kind: 'rate_limit', refused: 1, deadline: NOW + 42_000 }]);
    const streaky = troubledSnapshot(NOW).seats.map((s) =>
      s.id === 'work-max' ? { ...s, credit: null, models: s.models.map((m) => ({ ...m, streak: 2 })) } : s,
    );
    expect(deriveSeats(streaky, NOW, MAX).find((s) => s.id === 'work-max')!.breakers[0]).toEqual({
      kind: 'streak',
      model: 'claude-sonnet-4-5',
      streak: 2,
    });
  });

  test('events for an unknown seat change nothing', () => {
    const model = applyBreakerEvent(
      snapshot.seats,
      breakerEvent({ ts: NOW, action: 'tripped', scope: 'seat_credit', seat: 'nobody', until: NOW + 1 }),
    );
    expect(model).toBe(snapshot.seats);
  });
});
