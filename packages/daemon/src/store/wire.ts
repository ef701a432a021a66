import type { Breaker, BreakerAction, Signal } from '@routeplane/shared';

/**
 * What the shared store's scripts write and publish (lua.ts), read back with
 * every field checked: another daemon (of another version, or a stranger
 * writing under the same prefix) must never put a malformed breaker into
 * this daemon's table. Anything that does not read is dropped, as a value.
 */

/** A breaker as the store keeps it: the last daemon that changed it, and the revision of that change. */
export interface SharedBreaker {
  readonly breaker: Breaker;
  readonly origin: string;
  readonly rev: number;
}

export interface SharedStreak {
  readonly name: string;
  readonly count: number;
  readonly lastFailureAt: number | null;
  readonly seats: string[];
  readonly rev: number;
}

export type StoreMessage =
  | {
      kind: 'breaker';
      key: string;
      action: BreakerAction;
      reason: string;
      origin: string;
      rev: number;
      breaker: Breaker | null;
      /** an end replayed after an outage: the `since` of the trip it ended */
      endedSince: number | null;
    }
  | { kind: 'streak'; origin: string; streak: SharedStreak };

type Json = Record<string, unknown>;

const KINDS = new Set(['credit', 'quota', 'rate_limit', 'errors', 'key_rejected']);
const SCOPES = new Set(['seat', 'model', 'provider']);
const PHASES = new Set(['open', 'probe_ready', 'probing']);
const ACTIONS = new Set<BreakerAction>([
  'tripped',
  'extended',
  'probe_ready',
  'probe_claimed',
  'probe_failed',
  'cleared',
  'reset',
  'refused',
  'skipped',
]);

function parse(text: string): Json | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const numOrNull = (v: unknown): number | null | undefined => (v === null ? null : isNum(v) ? v : undefined);
const strOrNull = (v: unknown): string | null | undefined => (v === null ? null : typeof v === 'string' ? v : undefined);

function readSignal(v: unknown): Signal | null | undefined {
  if (v === null) return null;
  if (!isObject(v)) return undefined;
  const status = numOrNull(v.status ?? null);
  const type = strOrNull(v.type ?? null);
  const code = strOrNull(v.code ?? null);
  const header = strOrNull(v.header ?? null);
  const message = strOrNull(v.message ?? null);
  if (status === undefined || type === undefined || code === undefined || header === undefined || message === undefined) return undefined;
  return { status, type, code, header, message };
}

export function readBreaker(v: unknown): Breaker | null {
  if (!isObject(v)) return null;
  const { key, kind, scope, phase, since, failed_probes, refused_count, skipped_count } = v;
  if (typeof key !== 'string' || typeof kind !== 'string' || !KINDS.has(kind)) return null;
  if (typeof scope !== 'string' || !SCOPES.has(scope) || typeof phase !== 'string' || !PHASES.has(phase)) return null;
  if (!isNum(since) || !isNum(failed_probes) || !isNum(refused_count) || !isNum(skipped_count)) return null;
  const seat = strOrNull(v.seat ?? null);
  const upstream = strOrNull(v.upstream ?? null);
  const model = strOrNull(v.model ?? null);
  const until = numOrNull(v.until ?? null);
  const resetAt = numOrNull(v.reset_at ?? null);
  const cooldown = numOrNull(v.cooldown_ms ?? null);
  const claimedAt = numOrNull(v.claimed_at ?? null);
  const signal = readSignal(v.signal ?? null);
  if (seat === undefined || upstream === undefined || model === undefined) return null;
  if (until === undefined || resetAt === undefined || cooldown === undefined || claimedAt === undefined || signal === undefined)
    return null;
  return {
    key,
    kind: kind as Breaker['kind'],
    scope: scope as Breaker['scope'],
    seat,
    upstream,
    model,
    phase: phase as Breaker['phase'],
    since,
    until,
    reset_at: resetAt,
    cooldown_ms: cooldown,
    failed_probes,
    refused_count,
    skipped_count,
    claimed_at: claimedAt,
    signal,
  };
}

/** `{b, o, v}` as PUT, CLAIM and SNAPSHOT return it. */
export function readSharedBreaker(text: string): SharedBreaker | null {
  const env = parse(text);
  if (env === null || typeof env.o !== 'string' || !isNum(env.v)) return null;
  const breaker = readBreaker(env.b);
  return breaker === null ? null : { breaker, origin: env.o, rev: env.v };
}

/** Lua's JSON encoder writes an empty list as `{}`. */
function seatList(v: unknown): string[] | null {
  if (isObject(v) && Object.keys(v).length === 0) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) return null;
  return v as string[];
}

/** `{n, c, l, s, v}` as STREAK and SNAPSHOT return it. */
export function readSharedStreak(text: string): SharedStreak | null {
  return streakOf(parse(text));
}

function streakOf(s: Json | null): SharedStreak | null {
  if (s === null || typeof s.n !== 'string' || !isNum(s.c) || !isNum(s.v)) return null;
  const last = numOrNull(s.l ?? null);
  const seats = seatList(s.s ?? []);
  if (last === undefined || seats === null) return null;
  return { name: s.n, count: s.c, lastFailureAt: last, seats, rev: s.v };
}

/** One message from the channel. */
export function readMessage(text: string): StoreMessage | null {
  const m = parse(text);
  if (m === null || typeof m.o !== 'string') return null;
  if (m.t === 's') {
    const streak = streakOf(m);
    return streak === null ? null : { kind: 'streak', origin: m.o, streak };
  }
  if (m.t !== 'b' || typeof m.k !== 'string' || typeof m.a !== 'string' || !ACTIONS.has(m.a as BreakerAction)) return null;
  if (typeof m.r !== 'string' || !isNum(m.v)) return null;
  const breaker = m.b === null ? null : readBreaker(m.b);
  if (m.b !== null && (breaker === null || breaker.key !== m.k)) return null;
  const endedSince = breaker === null && isNum(m.s) ? m.s : null;
  return { kind: 'breaker', key: m.k, action: m.a as BreakerAction, reason: m.r, origin: m.o, rev: m.v, breaker, endedSince };
}
