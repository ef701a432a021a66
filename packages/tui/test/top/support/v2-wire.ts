import {
  type Breaker,
  type DaemonEvent,
  type DecisionEvent,
  encodeLine,
  type HelloResult,
  LineSplitter,
  projectRoutes,
  type SeatUsage,
  type Snapshot,
  type StoreInfo,
} from '@routeplane/shared';
import type { MonitorStore } from '../../../src/top/store/monitor-store.js';
import {
  attempt,
  breaker,
  decision,
  type FixtureRoute,
  INFLUENCE,
  routeRefs,
  seatsOf,
  seatSubject,
  targetSubject,
  UPSTREAM,
} from './fixtures.js';

/**
 * A daemon's side of one monitor connection as the bytes protocol v2 puts on
 * the socket — the replies to `hello`, `subscribe`, `snapshot` and `recent`,
 * then `{"event": …}` lines — and a reader that feeds them to a store the
 * way the connection manager does. Component tests render what these lines
 * make, so every element on screen is shown from the protocol's own shapes.
 */
export interface Wire {
  readonly lines: string[];
}

const ID = { hello: 1, subscribe: 2, snapshot: 3, recent: 4 } as const;

export function daemonWire(parts: {
  hello: HelloResult;
  snapshot: Snapshot;
  recent?: readonly DecisionEvent[];
  events?: readonly DaemonEvent[];
}): Wire {
  const lines = [
    encodeLine({ id: ID.hello, ok: true, result: parts.hello }),
    encodeLine({ id: ID.subscribe, ok: true, result: { subscribed: true } }),
    encodeLine({ id: ID.snapshot, ok: true, result: parts.snapshot }),
    encodeLine({ id: ID.recent, ok: true, result: { decisions: parts.recent ?? [] } }),
    ...(parts.events ?? []).map((event) => encodeLine({ event })),
  ];
  return { lines };
}

/** Reads the wire as the monitor's client would (split into lines, parsed) and hands each reply or event to the store. */
export function feedWire(store: MonitorStore, wire: Wire): void {
  const splitter = new LineSplitter(1024 * 1024);
  for (const result of splitter.push(Buffer.from(wire.lines.join(''), 'utf8'))) {
    if (result.kind !== 'line') throw new Error('a line too long on the wire');
    const message = JSON.parse(result.line) as { id?: number; ok?: boolean; result?: unknown; event?: DaemonEvent };
    if (message.event) {
      store.push({ kind: 'event', event: message.event });
      continue;
    }
    if (!message.ok) throw new Error(`an error reply: ${result.line}`);
    switch (message.id) {
      case ID.hello:
        store.setDaemon(message.result as HelloResult);
        break;
      case ID.snapshot:
        store.push({ kind: 'snapshot', snapshot: message.result as Snapshot });
        store.setConnection({ kind: 'live', since: (message.result as Snapshot).now });
        break;
      case ID.recent:
        store.push({ kind: 'backfill', decisions: (message.result as { decisions: DecisionEvent[] }).decisions });
        break;
    }
  }
}

// ── a busy, realistic screen ────────────────────────────────────────

export const REDIS_OK: StoreInfo = { kind: 'redis', state: 'ok', since: 0, daemons: 3 };

/** Two models whose names differ only in their date: cut, they must still read differently. */
export const DATED = ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250514'] as const;

export const BUSY_ROUTES: FixtureRoute[] = [
  {
    model: 'sonnet',
    chain: [
      { seat: 'work-max', model: 'claude-sonnet-4-5' },
      { seat: 'personal-pro', model: 'claude-sonnet-4-5' },
    ],
  },
  {
    model: 'haiku',
    balance: 'spread',
    chain: [
      { seat: 'personal-pro', model: 'claude-haiku-4-5' },
      { seat: 'work-max', model: 'claude-haiku-4-5' },
      { seat: 'openrouter', model: 'anthropic/claude-haiku-4.5', weight: 0 },
    ],
  },
  {
    model: 'dated',
    chain: [
      { seat: 'work-max', model: DATED[0] },
      { seat: 'work-max', model: DATED[1] },
    ],
  },
  { model: 'codex', chain: [{ seat: 'openrouter', model: 'openai/gpt-5-codex' }] },
];

const HOUR = 3_600_000;

/**
 * work-max: out of credit (400 credit balance is too low), failed again 12,
 * skipped 4 background, probe in 41s; its 5h window at 62 %, resetting in
 * 2h14m. personal-pro: a spent 5h window — a quota breaker until the
 * provider's reset in 2h14m — and claude-opus… probe-ready. openrouter:
 * rate-limited, ends in 3s.
 */
export function busyBreakers(now: number): Breaker[] {
  return [
    breaker('credit', seatSubject('work-max'), {
      since: now - 20_000,
      until: now + 41_000,
      refused_count: 12,
      skipped_count: 4,
      signal: {
        status: 400,
        type: 'invalid_request_error',
        code: null,
        header: null,
        message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      },
    }),
    breaker('quota', seatSubject('personal-pro'), {
      since: now - 60_000,
      until: now + 2 * HOUR + 14 * 60_000,
      reset_at: now + 2 * HOUR + 14 * 60_000,
      cooldown_ms: null,
      signal: {
        status: 429,
        type: 'rate_limit_error',
        code: null,
        header: `anthropic-ratelimit-unified-reset: ${Math.round((now + 2 * HOUR + 14 * 60_000) / 1000)}`,
        message: "This request would exceed your account's rate limit. Please try again later.",
      },
    }),
    breaker('errors', targetSubject('work-max', DATED[1]), { since: now - 5000, until: now - 1000, phase: 'probe_ready' }),
    breaker('rate_limit', seatSubject('openrouter'), { since: now - 1000, until: now + 3000, cooldown_ms: 4000, refused_count: 2 }),
  ];
}

export function busyUsage(now: number): Map<string, SeatUsage> {
  return new Map([
    [
      'work-max',
      {
        observed_at: now - 1000,
        windows: [
          { name: '5h', utilization: 0.62, reset_at: now + 2 * HOUR + 14 * 60_000, status: 'allowed' },
          { name: '7d', utilization: 0.31, reset_at: now + 80 * HOUR, status: 'allowed' },
        ],
        extra_usage: false,
      },
    ],
    [
      'personal-pro',
      {
        observed_at: now - 60_000,
        windows: [{ name: '5h', utilization: 1.01, reset_at: now + 8_040_000, status: 'rejected' }],
        extra_usage: false,
      },
    ],
    [
      'openrouter',
      { observed_at: now - 2000, windows: [{ name: 'requests', utilization: 0.2, reset_at: now + 6000, status: null }], extra_usage: null },
    ],
  ]);
}

export function busySnapshot(now: number): Snapshot {
  const breakers = busyBreakers(now);
  const refs = routeRefs(BUSY_ROUTES);
  const usage = busyUsage(now);
  return {
    seq: 40,
    now,
    influence: INFLUENCE,
    routes: projectRoutes(refs, breakers, (seat) => UPSTREAM[seat] ?? ''),
    seats: seatsOf(BUSY_ROUTES, breakers).map((s) => ({ ...s, usage: usage.get(s.id) ?? null })),
    breakers,
    counters: { requests: 4200, failovers: 96, fail_open: 3 },
    store: REDIS_OK,
  };
}

export function busyHello(now: number): HelloResult {
  return {
    version: '0.2.0',
    protocol: 2,
    pid: 4242,
    started_at: now - 312_000,
    http_url: 'http://127.0.0.1:4141',
    influence: INFLUENCE,
    daemon_id: 'fixture-host:4242',
    store: REDIS_OK,
    restored: 0,
    config_path: null,
  };
}

/**
 * What the daemon decided before the monitor attached (`recent`): spread
 * haiku sessions (3 on personal-pro, 1 on work-max), a probe, a fail-open
 * request, skipped background work, and failures on work-max so its
 * sparkline has failed buckets.
 */
export function busyHistory(now: number): DecisionEvent[] {
  const spread = (i: number, seat: string, ts: number) =>
    decision({
      ts,
      request_id: `haiku-${i}`,
      route: 'haiku',
      balance: 'spread',
      session: `5e55${i}0000000`.slice(0, 12),
      chain: [{ seat, model: 'claude-haiku-4-5', state: 'healthy', reason: null, pinned: false, left_ms: null }],
      attempts: [attempt(seat, 'claude-haiku-4-5', 'ok', 200, 300)],
      served_by: `${seat}/claude-haiku-4-5`,
    });
  return [
    spread(1, 'personal-pro', now - 100_000),
    spread(2, 'personal-pro', now - 80_000),
    spread(3, 'work-max', now - 60_000),
    spread(4, 'personal-pro', now - 40_000),
    decision({
      ts: now - 30_000,
      request_id: 'credit-out',
      chain: [
        { seat: 'work-max', model: 'claude-sonnet-4-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
        { seat: 'personal-pro', model: 'claude-sonnet-4-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
      ],
      attempts: [
        {
          ...attempt('work-max', 'claude-sonnet-4-5', 'http_4xx', 400, 80),
          evidence: 'credit',
          signal: { status: 400, type: 'invalid_request_error', code: null, header: null, message: 'Your credit balance is too low' },
        },
        attempt('personal-pro', 'claude-sonnet-4-5', 'ok', 200, 700),
      ],
      served_by: 'personal-pro/claude-sonnet-4-5',
      duration_ms: 790,
    }),
    decision({
      ts: now - 20_000,
      request_id: 'probed',
      chain: [
        { seat: 'work-max', model: 'claude-sonnet-4-5', state: 'probe', reason: 'credit', pinned: false, left_ms: null },
        { seat: 'personal-pro', model: 'claude-sonnet-4-5', state: 'tripped', reason: 'quota', pinned: false, left_ms: 8_040_000 },
      ],
      attempts: [
        { ...attempt('work-max', 'claude-sonnet-4-5', 'http_4xx', 400, 60), evidence: 'credit' },
        { ...attempt('personal-pro', 'claude-sonnet-4-5', 'http_429', 429, 50), evidence: 'quota' },
      ],
      served_by: 'personal-pro/claude-sonnet-4-5',
      status: 429,
      duration_ms: 115,
    }),
    decision({
      ts: now - 10_000,
      request_id: 'failed-open',
      route: 'codex',
      fail_open: true,
      status: 429,
      chain: [{ seat: 'openrouter', model: 'openai/gpt-5-codex', state: 'tripped', reason: 'rate_limit', pinned: false, left_ms: 3000 }],
      attempts: [attempt('openrouter', 'openai/gpt-5-codex', 'http_429', 429, 30)],
      served_by: 'openrouter/openai/gpt-5-codex',
      duration_ms: 33,
    }),
    decision({
      ts: now - 5_000,
      request_id: 'background-skipped',
      route: 'sonnet',
      lane: 'background',
      skipped: true,
      status: 503,
      attempts: [],
      served_by: null,
      duration_ms: 1,
    }),
  ];
}

/** Everything above, as the daemon would put it on the socket. */
export function busyWire(now: number): Wire {
  return daemonWire({ hello: busyHello(now), snapshot: busySnapshot(now), recent: busyHistory(now) });
}
