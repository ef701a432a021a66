import type { BreakerEvent } from '@routeplane/shared';
import { describe, expect } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { respond, type Behaviour } from '../helpers/fake-upstream.js';
import { HOSTILE_INFLUENCE, hostileIt as it, type HostileFixture } from '../helpers/hostile-fixture.js';

/**
 * Hostile Retry-After values on a 429 (issue 7): whatever the header says,
 * the seat's rate-limit deadline is a finite time clamped to
 * [1 s, max_cooldown_secs] — read back from the breaker event and the
 * snapshot — the next target serves, and a deadline at the 1 s floor really
 * ends. The deadline's timer does not depend on the header once the deadline
 * is known, so that last part is waited out for one value, not for each.
 */

const MAX_MS = HOSTILE_INFLUENCE.max_cooldown_secs * 1000;
const FLOOR_MS = 1000;

function rateLimited(headers: Record<string, string>): Behaviour {
  return respond.status(429, headers);
}

const CASES: Array<[string, Record<string, string>, number]> = [
  ['garbage', { 'retry-after': 'soon, maybe' }, FLOOR_MS],
  ['negative', { 'retry-after': '-30' }, FLOOR_MS],
  ['zero', { 'retry-after': '0' }, FLOOR_MS],
  ['a tiny fraction', { 'retry-after': '0.0001' }, FLOOR_MS],
  ['NaN', { 'retry-after': 'NaN' }, FLOOR_MS],
  ['Infinity', { 'retry-after': 'Infinity' }, FLOOR_MS],
  ['exponent notation', { 'retry-after': '1e9' }, FLOOR_MS],
  ['an HTTP-date in the past', { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }, FLOOR_MS],
  ['an empty value', { 'retry-after': '' }, FLOOR_MS],
  ['missing', {}, FLOOR_MS],
  ['retry-after-ms negative (Retry-After garbage too)', { 'retry-after-ms': '-5', 'retry-after': 'x' }, FLOOR_MS],
  ['enormous delta-seconds (400 digits)', { 'retry-after': '9'.repeat(400) }, MAX_MS],
  ['an HTTP-date in the year 9999', { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }, MAX_MS],
  ['enormous retry-after-ms', { 'retry-after-ms': '99999999999999999999999', 'retry-after': '1' }, MAX_MS],
];

/** A 429 carrying `headers` on a, then the same on `solo`: checks everything but the end of the deadline; returns the trip event. */
async function expectClampedDeadline(fx: HostileFixture, headers: Record<string, string>, expectedMs: number): Promise<BreakerEvent> {
  const res = await fx.post(fx.main());
  expect(res.status).toBe(200);
  expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
  await res.text();
  const d = await fx.t.events.nextDecision();
  expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
    ['a', 'http_429', 429],
    ['b', 'ok', 200],
  ]);

  const tripped = await fx.t.events.take(isBreaker('tripped', 'a'));
  expect(tripped.scope).toBe('seat_rate_limit');
  expect(tripped.cooldown_ms).toBe(expectedMs);
  expect(Number.isFinite(tripped.until)).toBe(true);
  // the deadline is measured from the moment of the 429, a hair before the event was stamped
  expect(tripped.until! - tripped.ts).toBeLessThanOrEqual(expectedMs);
  expect(tripped.until! - tripped.ts).toBeGreaterThan(expectedMs - 1_000);
  const seat = fx.seatA();
  expect(seat.rate_limit?.until).toBe(tripped.until);
  expect(fx.t.context.influence.open()).toEqual([
    expect.objectContaining({
      scope: 'seat_rate_limit',
      seat: 'a',
      model: null,
      reason: 'rate_limit',
      refused_count: 0,
      until: tripped.until,
    }),
  ]);

  // a seat that is only rate-limited and the only target: the agent gets the 429 as the upstream sent it
  const solo = await fx.post(fx.solo());
  expect(solo.status).toBe(429);
  expect(solo.headers.get('x-routeplane-target')).toBe('a/model-a');
  for (const [name, value] of Object.entries(headers)) expect(solo.headers.get(name)).toBe(value);
  // the upstream's own body, unchanged
  expect(await solo.json()).toEqual({ error: { message: 'fake upstream says 429', type: 'fake_error' } });
  expect((await fx.t.events.nextDecision()).status).toBe(429);
  // the second 429 with the same hostile value may only push the deadline forward, still clamped, never to NaN
  const after = fx.seatA().rate_limit!.until;
  expect(Number.isFinite(after)).toBe(true);
  expect(after).toBeGreaterThanOrEqual(tripped.until!);
  expect(after - Date.now()).toBeLessThanOrEqual(expectedMs);
  return tripped;
}

describe.concurrent('hostile Retry-After on a 429', () => {
  it.for(CASES)('%s: the deadline is finite and clamped, the next target serves', async ([_what, headers, expectedMs], { hostile }) => {
    const fx = await hostile({ behaviourA: rateLimited(headers) });
    await expectClampedDeadline(fx, headers, expectedMs);

    // and the daemon still serves: b while a's deadline lasts (at the floor it may already have passed: then a)
    fx.a.setDefault(respond.openaiChat());
    const next = await fx.post(fx.main());
    expect(next.status).toBe(200);
    if (expectedMs === FLOOR_MS) expect(['a/model-a', 'b/model-b']).toContain(next.headers.get('x-routeplane-target'));
    else expect(next.headers.get('x-routeplane-target')).toBe('b/model-b');
    await next.text();
  });

  it('a deadline at the 1 s floor really ends: its timer fires and clears it, and a healthy a serves again', async ({ hostile }) => {
    const headers = { 'retry-after': 'soon, maybe' };
    const fx = await hostile({ behaviourA: rateLimited(headers) });
    await expectClampedDeadline(fx, headers, FLOOR_MS);

    const cleared = await fx.t.events.take(isBreaker('cleared', 'a'));
    expect(cleared.scope).toBe('seat_rate_limit');
    expect(fx.seatA().rate_limit).toBeNull();

    fx.a.setDefault(respond.openaiChat());
    const next = await fx.post(fx.main());
    expect(next.status).toBe(200);
    expect(next.headers.get('x-routeplane-target')).toBe('a/model-a');
    await next.text();
  });
});
