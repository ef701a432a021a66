/**
 * The Breaker object of protocol v2: every kind of
 * evidence the daemon holds against a seat, a target or a provider, in one
 * shape. The daemon's engine keeps these, the socket streams them, and the
 * monitor renders them; the rules that read them live beside them.
 */

/** What the evidence was. */
export type BreakerKind = 'credit' | 'quota' | 'rate_limit' | 'errors' | 'key_rejected';

/** What it covers: every model of a seat, one model on one seat, or one model on every seat of an upstream. */
export type BreakerCover = 'seat' | 'model' | 'provider';

/**
 * `open` until `until`; then `probe_ready` (one request may claim the probe);
 * `probing` while a claim is in flight. A rate limit is `open` until its
 * deadline passes and then ends: it is never probed.
 */
export type BreakerPhase = 'open' | 'probe_ready' | 'probing';

/** What an upstream said, as people read it. Redacted of every secret. */
export interface Signal {
  /** the HTTP status (the embedded code for errors inside a 2xx) */
  status: number | null;
  /** error.type / error.status */
  type: string | null;
  /** error.code / error.details.error_code, as a string */
  code: string | null;
  /** the one header that set a deadline or reset, `name: value` */
  header: string | null;
  /** error.message, at most 200 characters */
  message: string | null;
}

export interface Breaker {
  key: string;
  kind: BreakerKind;
  scope: BreakerCover;
  /** null for scope provider */
  seat: string | null;
  /** the upstream (provider + base_url) for scope provider, else null */
  upstream: string | null;
  /** null for scope seat */
  model: string | null;
  phase: BreakerPhase;
  /** when it last tripped (a failed probe's re-trip included), or the rate limit began */
  since: number;
  /** probe-ready time, or the rate-limit/quota deadline */
  until: number | null;
  /** the provider's own stated reset (quota), else null */
  reset_at: number | null;
  cooldown_ms: number | null;
  failed_probes: number;
  refused_count: number;
  skipped_count: number;
  claimed_at: number | null;
  /** what tripped or last extended it */
  signal: Signal | null;
}

/** Where a breaker sits: a seat, a target (`seat/model`) or a provider model (`provider:UPSTREAM/model`). */
export type BreakerSubject =
  | { scope: 'seat'; seat: string }
  | { scope: 'model'; seat: string; model: string }
  | { scope: 'provider'; upstream: string; model: string };

/** `KIND:` + the seat, target or provider path: unique among active breakers, stable for a breaker's life. */
export function breakerKey(kind: BreakerKind, subject: BreakerSubject): string {
  switch (subject.scope) {
    case 'seat':
      return `${kind}:${subject.seat}`;
    case 'model':
      return `${kind}:${subject.seat}/${subject.model}`;
    case 'provider':
      return `${kind}:provider:${subject.upstream}/${subject.model}`;
  }
}

/** The v1 `scope` word of breaker events and `status` (kept for v1 readers). */
export type BreakerScope = 'seat_credit' | 'seat_rate_limit' | 'model' | 'seat_quota' | 'model_quota' | 'seat_key' | 'provider_model';

export function v1Scope(kind: BreakerKind, cover: BreakerCover): BreakerScope {
  switch (kind) {
    case 'credit':
      return 'seat_credit';
    case 'rate_limit':
      return 'seat_rate_limit';
    case 'key_rejected':
      return 'seat_key';
    case 'quota':
      return cover === 'seat' ? 'seat_quota' : 'model_quota';
    case 'errors':
      return cover === 'provider' ? 'provider_model' : 'model';
  }
}

/** Why a target sits where it does: one word per breaker kind, and the provider layer's own. */
export type TripReason = 'credit' | 'rate_limit' | 'model_errors' | 'quota' | 'key_rejected' | 'provider_errors';

export function tripReason(kind: BreakerKind, cover: BreakerCover): TripReason {
  switch (kind) {
    case 'errors':
      return cover === 'provider' ? 'provider_errors' : 'model_errors';
    default:
      return kind;
  }
}

/** The order reasons are listed in wherever several apply to one target. */
export const TRIP_REASON_ORDER: readonly TripReason[] = [
  'credit',
  'key_rejected',
  'quota',
  'rate_limit',
  'provider_errors',
  'model_errors',
];

/** A rate limit ends at its deadline; every other kind is probed once its `until` passes. */
export function isProbed(kind: BreakerKind): boolean {
  return kind !== 'rate_limit';
}
