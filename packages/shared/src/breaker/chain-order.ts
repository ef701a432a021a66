import type { TargetState } from './target-state.js';

/**
 * Deprioritize, never remove: entries a request may try now keep
 * their base order at the front, held-back ones follow in base order. When
 * nothing may be tried now the breaker steps aside (fail open) and the base
 * order stands as if influence were off. Drained entries are never tried and
 * are not ordered here: callers leave them out.
 */
export function orderChain<T>(entries: readonly T[], isUsable: (entry: T) => boolean): { ordered: T[]; failOpen: boolean } {
  const front: T[] = [];
  const back: T[] = [];
  for (const entry of entries) (isUsable(entry) ? front : back).push(entry);
  if (front.length === 0) return { ordered: entries.slice(), failOpen: entries.length > 0 };
  if (back.length === 0) return { ordered: front, failOpen: false };
  return { ordered: front.concat(back), failOpen: false };
}

/**
 * Foreground work may try a healthy target, and claim the probe of a probe-ready one — unless
 * probes cannot be claimed: while a shared store is degraded a claim is not made, and the
 * request treats the target as still tripped.
 */
export function usableInForeground(state: TargetState, probesClaimable = true): boolean {
  return state === 'healthy' || (probesClaimable && state === 'probe_ready');
}

/** Background work only ever goes to a target nothing holds back. */
export function usableInBackground(state: TargetState): boolean {
  return state === 'healthy';
}
