import type { BreakerEvent, DecisionEvent, HelloResult, Snapshot, SnapshotSeat } from '@routeplane/shared';

/**
 * A realistic setup with long-ish names: three seats (one an OpenRouter-style
 * OpenAI-compatible seat with vendor-prefixed model ids) and three routes.
 */
export const SEATS = ['work-max', 'personal-pro', 'openrouter'] as const;

export const ROUTES = [
  {
    model: 'sonnet',
    chain: [
      { seat: 'work-max', model: 'claude-sonnet-4-5' },
      { seat: 'personal-pro', model: 'claude-sonnet-4-5' },
      { seat: 'openrouter', model: 'anthropic/claude-sonnet-4.5' },
    ],
  },
  {
    model: 'opus',
    chain: [
      { seat: 'work-max', model: 'claude-opus-4-1' },
      { seat: 'personal-pro', model: 'claude-opus-4-1' },
    ],
  },
  { model: 'codex', chain: [{ seat: 'openrouter', model: 'openai/gpt-5-codex' }] },
];

export const TARGET_NAMES = ROUTES.flatMap((r) => r.chain.map((t) => `${t.seat}/${t.model}`));

export const INFLUENCE = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 3, window_secs: 300 };

function healthySeat(id: string): SnapshotSeat {
  const models = ROUTES.flatMap((r) => r.chain.filter((t) => t.seat === id).map((t) => t.model));
  return {
    id,
    provider: id === 'openrouter' ? 'openai' : 'anthropic',
    credit: null,
    rate_limit: null,
    models: [...new Set(models)].map((model) => ({ model, streak: 0, breaker: null })),
  };
}

/** Everything healthy: chains in configured order. */
export function healthySnapshot(now: number, influence = INFLUENCE): Snapshot {
  return {
    now,
    influence,
    routes: ROUTES.map((r) => ({
      model: r.model,
      chain: r.chain.map((t) => ({ ...t, state: 'healthy' as const, reasons: [], until: null })),
    })),
    seats: SEATS.map(healthySeat),
    counters: { requests: 0, failovers: 0, fail_open: 0 },
  };
}

/**
 * work-max out of credit (probe in 3m05s, refused 4, 1 failed probe),
 * openrouter rate-limited for 42s, personal-pro/claude-opus-4-1 tripped by errors.
 */
export function troubledSnapshot(now: number): Snapshot {
  const credit = {
    tripped_at: now - 10_000,
    cooldown_ms: 120_000,
    probe_ready_at: now + 185_000,
    failed_probes: 1,
    refused_count: 4,
    claimed_at: null,
  };
  const modelBreaker = {
    tripped_at: now - 5_000,
    cooldown_ms: 60_000,
    probe_ready_at: now + 55_000,
    failed_probes: 0,
    refused_count: 2,
    claimed_at: null,
  };
  const seats = SEATS.map(healthySeat).map((seat) => {
    if (seat.id === 'work-max') return { ...seat, credit };
    if (seat.id === 'openrouter') return { ...seat, rate_limit: { since: now - 1000, until: now + 42_000, refused_count: 1 } };
    if (seat.id === 'personal-pro') {
      return { ...seat, models: seat.models.map((m) => (m.model === 'claude-opus-4-1' ? { ...m, streak: 3, breaker: modelBreaker } : m)) };
    }
    return seat;
  });
  const t = (
    seat: string,
    model: string,
    state: 'healthy' | 'tripped',
    reasons: ('credit' | 'rate_limit' | 'model_errors')[],
    until: number | null,
  ) => ({
    seat,
    model,
    state,
    reasons,
    until,
  });
  return {
    now,
    influence: INFLUENCE,
    routes: [
      {
        model: 'sonnet',
        chain: [
          t('personal-pro', 'claude-sonnet-4-5', 'healthy', [], null),
          t('work-max', 'claude-sonnet-4-5', 'tripped', ['credit'], now + 185_000),
          t('openrouter', 'anthropic/claude-sonnet-4.5', 'tripped', ['rate_limit'], now + 42_000),
        ],
      },
      // all tripped: fail open, configured order
      {
        model: 'opus',
        chain: [
          t('work-max', 'claude-opus-4-1', 'tripped', ['credit'], now + 185_000),
          t('personal-pro', 'claude-opus-4-1', 'tripped', ['model_errors'], now + 55_000),
        ],
      },
      { model: 'codex', chain: [t('openrouter', 'openai/gpt-5-codex', 'tripped', ['rate_limit'], now + 42_000)] },
    ],
    seats,
    counters: { requests: 120, failovers: 9, fail_open: 1 },
  };
}

export function hello(now: number): HelloResult {
  return { version: '0.1.0', pid: 4242, started_at: now - 312_000, http_url: 'http://127.0.0.1:4141', influence: INFLUENCE };
}

let seq = 0;

export function decision(overrides: Partial<DecisionEvent> & { ts: number }): DecisionEvent {
  seq += 1;
  return {
    type: 'decision',
    seq,
    request_id: `req-${seq}`,
    route: 'sonnet',
    family: 'anthropic',
    stream: false,
    chain: [
      { seat: 'personal-pro', model: 'claude-sonnet-4-5', state: 'healthy', reason: null },
      { seat: 'work-max', model: 'claude-sonnet-4-5', state: 'tripped', reason: 'credit' },
    ],
    attempts: [{ seat: 'personal-pro', model: 'claude-sonnet-4-5', outcome: 'ok', status: 200, ms: 640 }],
    served_by: 'personal-pro/claude-sonnet-4-5',
    status: 200,
    duration_ms: 652,
    fail_open: false,
    ...overrides,
  };
}

/** A 402 on work-max, then served by personal-pro: one fail-over. */
export function failoverDecision(ts: number): DecisionEvent {
  return decision({
    ts,
    chain: [
      { seat: 'work-max', model: 'claude-sonnet-4-5', state: 'healthy', reason: null },
      { seat: 'personal-pro', model: 'claude-sonnet-4-5', state: 'healthy', reason: null },
    ],
    attempts: [
      { seat: 'work-max', model: 'claude-sonnet-4-5', outcome: 'http_402', status: 402, ms: 88 },
      { seat: 'personal-pro', model: 'claude-sonnet-4-5', outcome: 'ok', status: 200, ms: 721 },
    ],
    served_by: 'personal-pro/claude-sonnet-4-5',
    duration_ms: 812,
  });
}

export function breakerEvent(overrides: Partial<BreakerEvent> & Pick<BreakerEvent, 'action' | 'scope' | 'seat' | 'ts'>): BreakerEvent {
  seq += 1;
  return { type: 'breaker', seq, model: null, reason: 'http_402', cooldown_ms: 60_000, until: null, failed_probes: 0, ...overrides };
}
