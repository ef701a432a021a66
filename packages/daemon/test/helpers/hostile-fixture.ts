/**
 * The hostile-upstream fixture: seat `a` (the one a test makes hostile) and
 * seat `b` (healthy), one family. Route `main` tries a then b (fail-over is
 * visible); route `solo` has a alone (the agent sees what a did to it).
 * Every test ends with the invariants of `finish`: no wedged or leaked
 * upstream socket, no probe left claimed.
 */
import type { ConfigInput, DecisionEvent } from '@routeplane/shared';
import { expect, test } from 'vitest';
import { CLOSE_BOUND_MS, within } from './bounded-wait.js';
import { respond, startFakeUpstream, type Behaviour, type FakeUpstream } from './fake-upstream.js';
import { startTestDaemon, type TestDaemon } from './test-daemon.js';
import { CHAT, chatBody, MESSAGES, messagesBody } from './two-seats.js';
import { FAST_TIMEOUTS, SHORT_COOLDOWN_SECS } from './test-timing.js';

export type Family = 'openai' | 'anthropic';

export interface HostileFixture {
  readonly family: Family;
  readonly t: TestDaemon;
  readonly a: FakeUpstream;
  readonly b: FakeUpstream;
  /** the family's path */
  readonly path: string;
  /** a body for `main` (a then b) */
  main(extra?: Record<string, unknown>): Record<string, unknown>;
  /** a body for `solo` (a alone) */
  solo(extra?: Record<string, unknown>): Record<string, unknown>;
  post(body: Record<string, unknown>, init?: { signal?: AbortSignal; redirect?: 'follow' | 'manual' | 'error' }): Promise<Response>;
  /** a's model breaker streak and state, from the breaker's own view */
  seatA(): ReturnType<TestDaemon['context']['influence']['seats']>[number];
  /**
   * The end of every hostile-upstream test: no probe left claimed; after the daemon
   * closes, every upstream connection has closed and none is open.
   */
  finish(): Promise<void>;
}

/** trip_threshold 3: one hostile answer shows as a streak without tripping; a tripped seat's probe comes after a short cooldown. */
export const HOSTILE_INFLUENCE = {
  enabled: true,
  cooldown_secs: SHORT_COOLDOWN_SECS,
  max_cooldown_secs: 30,
  trip_threshold: 3,
  window_secs: 300,
} as const;

export interface HostileOptions {
  family?: Family;
  behaviourA?: Behaviour;
  influence?: NonNullable<ConfigInput['influence']>;
  timeouts?: NonNullable<ConfigInput['timeouts']>;
  server?: { body_limit_mb?: number; auth_token?: string };
}

export async function startHostile(opts: HostileOptions): Promise<HostileFixture> {
  const family = opts.family ?? 'openai';
  const ok = family === 'openai' ? respond.openaiChat() : respond.anthropicMessage();
  const a = await startFakeUpstream(opts.behaviourA ?? ok);
  const b = await startFakeUpstream(ok);
  const t = await startTestDaemon({
    seats: [
      { id: 'a', provider: family, upstream: a },
      { id: 'b', provider: family, upstream: b },
    ],
    routes: [
      {
        model: 'main',
        chain: [
          { seat: 'a', model: 'model-a' },
          { seat: 'b', model: 'model-b' },
        ],
      },
      { model: 'solo', chain: [{ seat: 'a', model: 'model-a' }] },
    ],
    influence: opts.influence ?? HOSTILE_INFLUENCE,
    timeouts: opts.timeouts ?? FAST_TIMEOUTS,
    ...(opts.server === undefined ? {} : { server: opts.server }),
  });
  const path = family === 'openai' ? CHAT : MESSAGES;
  const base = family === 'openai' ? chatBody : messagesBody;
  let finished = false;
  return {
    family,
    t,
    a,
    b,
    path,
    main: (extra = {}) => base({ model: 'main', ...extra }),
    solo: (extra = {}) => base({ model: 'solo', ...extra }),
    post: (body, init = {}) =>
      fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...init }),
    seatA: () => {
      const seat = t.context.influence.seats().find((s) => s.id === 'a');
      if (seat === undefined) throw new Error('no seat a');
      return seat;
    },
    async finish() {
      if (finished) return;
      finished = true;
      try {
        expectNoClaimedProbe(t);
        await t.close();
        await expectAllUpstreamSocketsClosed(a, 'seat a');
        await expectAllUpstreamSocketsClosed(b, 'seat b');
      } finally {
        await t.close();
        await Promise.all([a.close(), b.close()]);
      }
    },
  };
}

/** a's model breaker streak (consecutive failures counted as evidence). */
export function streakOfA(fx: HostileFixture): number {
  return fx.seatA().models.find((m) => m.model === 'model-a')?.streak ?? 0;
}

/** After a fault on a: a healthy a serves `solo` again, over a fresh or reused connection — nothing is wedged. Returns that decision. */
export async function expectServedAgainByA(fx: HostileFixture): Promise<DecisionEvent> {
  fx.a.setDefault(fx.family === 'openai' ? respond.openaiChat() : respond.anthropicMessage());
  const res = await fx.post(fx.solo());
  expect(res.status).toBe(200);
  expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
  const body = await res.json();
  expect(JSON.stringify(body)).toContain('model-a');
  const d = await fx.t.events.nextDecision();
  expect(d).toMatchObject({ status: 200, served_by: 'a/model-a' });
  return d;
}

/** Every connection that carried a request to `up` has closed, and none is open. */
export async function expectAllUpstreamSocketsClosed(up: FakeUpstream, what: string): Promise<void> {
  await within(Promise.all(up.requests.map((r) => r.closed)), CLOSE_BOUND_MS, `${what}: every upstream connection closes`);
  expect(up.openConnections(), `${what}: open upstream sockets`).toBe(0);
}

/** No breaker anywhere holds a probe claim. */
export function expectNoClaimedProbe(t: TestDaemon): void {
  for (const seat of t.context.influence.seats()) {
    expect(seat.credit?.claimed_at ?? null, `seat ${seat.id} credit claim`).toBeNull();
    for (const model of seat.models) expect(model.breaker?.claimed_at ?? null, `${seat.id}/${model.model} claim`).toBeNull();
  }
}

/**
 * `it` with a `hostile` fixture: `await hostile(opts)` starts one for the
 * test, and once the test is over each one started ends with `finish` (its
 * invariants are part of the test). A test owns its fixtures, so the tests
 * of a file can run concurrently.
 */
export const hostileIt = test.extend<{ hostile: (opts?: HostileOptions) => Promise<HostileFixture> }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this pattern; it has none
  hostile: async ({}, use) => {
    const started: HostileFixture[] = [];
    await use(async (opts = {}) => {
      const fx = await startHostile(opts);
      started.push(fx);
      return fx;
    });
    for (const fx of started) await fx.finish();
  },
});
