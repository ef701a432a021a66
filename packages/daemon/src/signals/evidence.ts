import type { EvidenceClass, Signal } from '@routeplane/shared';

/**
 * What one upstream attempt is evidence of (README, "How the breaker
 * decides"), as the breaker engine reads it. The classifier
 * (signals/classify.ts) produces it from the answer; the engine records it.
 * Deadlines are raw here: the engine clamps them with its own limits.
 */
export type Evidence =
  | { class: 'ok' }
  /** seat out of credit: a 402, a billing error, a too-low credit balance, OpenAI's insufficient_quota */
  | { class: 'credit'; signal: Signal }
  /** the seat's key is refused (401/403): trips like credit unless `trip_on_rejected_key: false` */
  | { class: 'key_rejected'; signal: Signal }
  /** a usage window or spend cap: held until the provider's stated reset (epoch ms, unclamped) */
  | { class: 'quota'; cover: 'seat' | 'model'; resetAt: number; signal: Signal }
  /** a plain 429: `waitMs` from Retry-After or the reset headers, unclamped; null when none was usable */
  | { class: 'rate_limit'; waitMs: number | null; signal: Signal }
  /** 5xx, 529, overloaded, timeout, refused/reset connection, broken stream */
  | { class: 'model_error'; signal: Signal | null }
  /** this request was refused for itself (e.g. a long-context overage 429): fail over, trip nothing */
  | { class: 'request'; signal: Signal }
  /** the request's own fault: the answer goes back to the agent unchanged */
  | { class: 'none'; signal: Signal | null }
  /** the agent hung up: no evidence at all */
  | { class: 'aborted' };

export type EvidenceOf<C extends Evidence['class']> = Extract<Evidence, { class: C }>;

/** The class recorded on the attempt (null when the agent hung up). */
export function evidenceClass(e: Evidence): EvidenceClass | null {
  return e.class === 'aborted' ? null : e.class;
}

export const OK: Evidence = Object.freeze({ class: 'ok' });
export const ABORTED: Evidence = Object.freeze({ class: 'aborted' });
