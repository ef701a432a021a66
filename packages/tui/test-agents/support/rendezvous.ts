/**
 * `balance: spread`'s weighted rendezvous order, written again from its rule
 * for the agent checks: it picks session ids that land on each seat (so "both
 * seats get sessions" is arranged, not left to chance) and predicts the seat
 * the daemon must choose for a real agent's session.
 */
import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';

/** The target (`seat/model`) a session key puts first when every weight is 1. */
export function firstTarget(sessionKey: string, targets: readonly string[]): string {
  let best = targets[0]!;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const target of targets) {
    const h = createHash('sha256').update(`${sessionKey}\n${target}`).digest();
    const u = (Number(h.readBigUInt64BE(0)) + 0.5) / 2 ** 64;
    const score = -Math.log(u);
    if (score < bestScore) [best, bestScore] = [target, score];
  }
  return best;
}

/** What a decision records for a session key: the first 12 hex digits of its SHA-256. */
export function sessionTag(sessionKey: string): string {
  return createHash('sha256').update(sessionKey).digest('hex').slice(0, 12);
}

/** `count` fresh UUIDs whose first target is `target`. */
export function sessionIdsLandingOn(target: string, targets: readonly string[], count: number): string[] {
  const ids: string[] = [];
  while (ids.length < count) {
    const id = randomUUID();
    if (firstTarget(id, targets) === target) ids.push(id);
  }
  return ids;
}
