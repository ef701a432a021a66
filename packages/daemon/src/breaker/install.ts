import type { Breaker, BreakerAction } from '@routeplane/shared';
import type { EngineState } from './engine-state.js';

/**
 * Puts a breaker into the table as another source holds it — a restored
 * state file or another daemon's transition through a shared
 * store — and announces it like any change (with that
 * source's `origin`). `null` ends the breaker. The engine's own rules made
 * the breaker elsewhere; here it is only taken in, so nothing is re-derived.
 */
export function installBreaker(
  s: EngineState,
  key: string,
  breaker: Breaker | null,
  action: BreakerAction,
  reason: string,
  origin: string,
): void {
  if (breaker === null) {
    s.table.end(key, action === 'reset' ? 'reset' : 'cleared', reason, origin);
    return;
  }
  const copy: Breaker = { ...breaker, signal: breaker.signal === null ? null : { ...breaker.signal } };
  const held = s.table.get(key);
  if (held === undefined) {
    s.table.insert(copy, action, reason, origin);
    return;
  }
  // a claim held here and not there is lost: the other source's phase is the truth
  if (copy.phase !== 'probing') held.claimId = -1;
  Object.assign(held.b, copy);
  s.table.announce(held, action, reason, copy.signal, origin);
}
