import {
  type Breaker,
  type BreakerAction,
  type BreakerEvent,
  type BreakerKind,
  type BreakerSubject,
  breakerKey,
  type DecisionEvent,
  type InfluenceInfo,
  projectRoutes,
  type RouteRef,
  type Snapshot,
  type SnapshotSeat,
  type StoreInfo,
  v1Scope,
} from '@routeplane/shared';

/**
 * Protocol v2 as the daemon speaks it, for the monitor's tests: a realistic
 * setup with long-ish names — three seats (two Anthropic seats on one
 * upstream, so a provider breaker covers both, and an OpenRouter-style
 * OpenAI-compatible seat with vendor-prefixed model ids) and three routes —
 * and builders for Breakers, breaker events and decisions in the exact
 * shapes of packages/shared. Snapshots are computed from the breakers with
 * the shared projection, as the daemon computes them.
 */
export const SEATS = ['work-max', 'personal-pro', 'openrouter'] as const;
export type SeatId = (typeof SEATS)[number];

export const ANTHROPIC = 'https://api.anthropic.com';
export const OPENROUTER = 'https://openrouter.ai/api';

export const UPSTREAM: Record<string, string> = { 'work-max': ANTHROPIC, 'personal-pro': ANTHROPIC, openrouter: OPENROUTER };

export interface FixtureRoute {
  model: string;
  balance?: RouteRef['balance'];
  chain: { seat: string; model: string; weight?: number }[];
}

export const ROUTES: FixtureRoute[] = [
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

export const INFLUENCE: InfluenceInfo = {
  enabled: true,
  cooldown_secs: 60,
  max_cooldown_secs: 900,
  trip_threshold: 3,
  window_secs: 300,
  max_quota_secs: 604_800,
  trip_on_rejected_key: true,
  state_file: null,
  shared: null,
};

export const INFLUENCE_OFF: InfluenceInfo = { ...INFLUENCE, enabled: false };

export const MEMORY_STORE: StoreInfo = { kind: 'memory', state: 'ok', since: 0, daemons: 1 };

export function routeRefs(routes: readonly FixtureRoute[] = ROUTES): RouteRef[] {
  return routes.map((r) => ({
    model: r.model,
    balance: r.balance ?? 'ordered',
    chain: r.chain.map((t, index) => ({ seat: t.seat, model: t.model, index, weight: t.weight ?? 1 })),
  }));
}

// ── breakers ────────────────────────────────────────────────────────

export const seatSubject = (seat: string): BreakerSubject => ({ scope: 'seat', seat });
export const targetSubject = (seat: string, model: string): BreakerSubject => ({ scope: 'model', seat, model });
export const providerSubject = (upstream: string, model: string): BreakerSubject => ({ scope: 'provider', upstream, model });

/** A Breaker as the daemon holds it: open, tripped at `since`, everything else from `over`. */
export function breaker(kind: BreakerKind, subject: BreakerSubject, over: Partial<Breaker> & { since: number }): Breaker {
  return {
    key: breakerKey(kind, subject),
    kind,
    scope: subject.scope,
    seat: subject.scope === 'provider' ? null : subject.seat,
    upstream: subject.scope === 'provider' ? subject.upstream : null,
    model: subject.scope === 'seat' ? null : subject.model,
    phase: 'open',
    until: null,
    reset_at: null,
    cooldown_ms: kind === 'rate_limit' ? null : 60_000,
    failed_probes: 0,
    refused_count: 0,
    skipped_count: 0,
    claimed_at: null,
    signal: null,
    ...over,
  };
}

/**
 * work-max out of credit (probe in 3m05s, refused 4, 1 failed probe),
 * openrouter rate-limited for 42s, personal-pro/claude-opus-4-1 tripped by errors (probe in 55s).
 */
export function troubledBreakers(now: number): Breaker[] {
  return [
    breaker('credit', seatSubject('work-max'), {
      since: now - 10_000,
      until: now + 185_000,
      cooldown_ms: 120_000,
      failed_probes: 1,
      refused_count: 4,
    }),
    breaker('rate_limit', seatSubject('openrouter'), { since: now - 1000, until: now + 42_000, cooldown_ms: 43_000, refused_count: 1 }),
    breaker('errors', targetSubject('personal-pro', 'claude-opus-4-1'), { since: now - 5000, until: now + 55_000, refused_count: 2 }),
  ];
}

// ── snapshots ───────────────────────────────────────────────────────

function v1Breaker(b: Breaker | undefined): SnapshotSeat['credit'] {
  if (!b) return null;
  return {
    tripped_at: b.since,
    cooldown_ms: b.cooldown_ms ?? 0,
    probe_ready_at: b.until ?? b.since,
    failed_probes: b.failed_probes,
    refused_count: b.refused_count,
    claimed_at: b.claimed_at,
  };
}

/** The seats as a snapshot lists them, v1 fields filled from the breakers like the daemon does. */
export function seatsOf(routes: readonly FixtureRoute[], breakers: readonly Breaker[]): SnapshotSeat[] {
  const byKey = new Map(breakers.map((b) => [b.key, b]));
  return SEATS.map((id) => {
    const models = [...new Set(routes.flatMap((r) => r.chain.filter((t) => t.seat === id).map((t) => t.model)))];
    const rateLimit = byKey.get(breakerKey('rate_limit', seatSubject(id)));
    return {
      id,
      provider: id === 'openrouter' ? 'openai' : 'anthropic',
      auth: id === 'openrouter' ? 'bearer' : 'x-api-key',
      upstream: UPSTREAM[id]!,
      credit: v1Breaker(byKey.get(breakerKey('credit', seatSubject(id)))),
      rate_limit: rateLimit
        ? { since: rateLimit.since, until: rateLimit.until ?? rateLimit.since, refused_count: rateLimit.refused_count }
        : null,
      models: models.map((model) => ({ model, streak: 0, breaker: v1Breaker(byKey.get(breakerKey('errors', targetSubject(id, model)))) })),
      usage: null,
    };
  });
}

export interface SnapshotParts {
  now: number;
  seq?: number;
  breakers?: readonly Breaker[];
  routes?: readonly FixtureRoute[];
  influence?: InfluenceInfo;
}

/** A snapshot result exactly as the daemon answers: chains projected from the configured order and the breakers. */
export function snapshotOf(parts: SnapshotParts): Snapshot {
  const breakers = [...(parts.breakers ?? [])];
  const routes = parts.routes ?? ROUTES;
  return {
    seq: parts.seq ?? 0,
    now: parts.now,
    influence: parts.influence ?? INFLUENCE,
    routes: projectRoutes(routeRefs(routes), breakers, (seat) => UPSTREAM[seat] ?? ''),
    seats: seatsOf(routes, breakers),
    breakers,
    counters: { requests: 120, failovers: 9, fail_open: 1 },
    store: MEMORY_STORE,
  };
}

export const healthySnapshot = (now: number): Snapshot => snapshotOf({ now });
export const troubledSnapshot = (now: number): Snapshot => snapshotOf({ now, breakers: troubledBreakers(now) });

// ── events ──────────────────────────────────────────────────────────

/** Actions after which the breaker is gone: the event carries `breaker: null`. */
const ENDING: ReadonlySet<BreakerAction> = new Set(['cleared', 'reset']);

/**
 * A breaker event as the daemon stamps it: the v1 fields from the breaker,
 * `key`, and the whole breaker after the change (null when it ended).
 */
export function breakerEvent(seq: number, ts: number, action: BreakerAction, b: Breaker, reason = action as string): BreakerEvent {
  const ended = ENDING.has(action);
  return {
    type: 'breaker',
    seq,
    ts,
    action,
    scope: v1Scope(b.kind, b.scope),
    seat: b.seat,
    model: b.model,
    reason,
    cooldown_ms: ended ? null : b.cooldown_ms,
    until: ended ? null : b.until,
    failed_probes: b.failed_probes,
    key: b.key,
    breaker: ended ? null : b,
    signal: b.signal,
    origin: 'fixture-host:4242',
  };
}

let decisionCount = 0;

export function decision(overrides: Partial<DecisionEvent> & { ts: number }): DecisionEvent {
  decisionCount += 1;
  return {
    type: 'decision',
    seq: 0,
    request_id: `req-${decisionCount}`,
    route: 'sonnet',
    family: 'anthropic',
    stream: false,
    chain: [
      { seat: 'personal-pro', model: 'claude-sonnet-4-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
      { seat: 'work-max', model: 'claude-sonnet-4-5', state: 'tripped', reason: 'credit', pinned: false, left_ms: 60_000 },
    ],
    attempts: [attempt('personal-pro', 'claude-sonnet-4-5', 'ok', 200, 640)],
    served_by: 'personal-pro/claude-sonnet-4-5',
    status: 200,
    duration_ms: 652,
    fail_open: false,
    requested: 'sonnet',
    agent: null,
    lane: 'foreground',
    session: null,
    balance: 'ordered',
    skipped: false,
    usage: null,
    cost: null,
    client: 'claude-cli',
    ...overrides,
  };
}

export function attempt(
  seat: string,
  model: string,
  outcome: DecisionEvent['attempts'][number]['outcome'],
  status: number | null,
  ms: number,
): DecisionEvent['attempts'][number] {
  const evidence = outcome === 'ok' ? 'ok' : outcome === 'http_402' ? 'credit' : outcome === 'http_429' ? 'rate_limit' : 'model_error';
  return { seat, model, outcome, status, ms, evidence, signal: null, retry: 0 };
}

/** A 402 on work-max, then served by personal-pro: one fail-over. */
export function failoverDecision(ts: number): DecisionEvent {
  return decision({
    ts,
    chain: [
      { seat: 'work-max', model: 'claude-sonnet-4-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
      { seat: 'personal-pro', model: 'claude-sonnet-4-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
    ],
    attempts: [attempt('work-max', 'claude-sonnet-4-5', 'http_402', 402, 88), attempt('personal-pro', 'claude-sonnet-4-5', 'ok', 200, 721)],
    served_by: 'personal-pro/claude-sonnet-4-5',
    duration_ms: 812,
  });
}
