import { hash } from 'node:crypto';
import { compareExactScores } from './rendezvous-exact.js';

/**
 * `balance: spread`: the weighted rendezvous order
 * of a route's targets for a session key `k`. For each target `t`, written
 * `seat/model`: `h = SHA-256(k + "\n" + t)` over UTF-8, `N` = the first 8
 * bytes of `h` as an unsigned big-endian integer, `u = (N + 0.5) / 2^64`,
 * `score = -ln(u) / weight`; ascending score first, ties in configured order.
 * Weight-0 targets are drained and never appear.
 *
 * Every daemon computes the same order from the same key with no shared
 * table, and a target's score depends on nothing but the key and the target,
 * so adding a target moves only the sessions it wins, and a breaker that
 * moves a tripped target back leaves every other session where it was.
 *
 * Scores are doubles computed to within a few units in the last place (N has
 * 64 bits and a double 53, so `u` is never formed naively near 1: there the
 * logarithm comes from `1 − u`, whose digits survive). Two scores closer than
 * that margin are ordered by the exact comparison (rendezvous-exact.ts), so
 * the order is the formula's exact order, not a rounding's.
 */

export interface WeightedTarget {
  readonly seat: string;
  readonly model: string;
  /** ≥ 0; 0 drains the target */
  readonly weight: number;
}

export interface Rendezvous {
  /** the routable targets' configured indices, in the key's order */
  order(key: string): number[];
}

interface Prepared {
  readonly index: number;
  /** `"\n" + seat/model`, appended to the key */
  readonly suffix: string;
  readonly weight: number;
}

/** One target's score for one key, with what the exact comparison needs. */
export interface Scored {
  readonly index: number;
  readonly score: number;
  readonly hi: number;
  readonly lo: number;
  readonly weight: number;
}

const TWO_POW_32 = 4_294_967_296;
const TWO_POW_MINUS_64 = 2 ** -64;
/**
 * Computed scores are within about 2^-50 of the true ones, relatively; a
 * pair closer than this far wider margin goes to the exact comparison.
 */
const CLOSE = 2 ** -40;
/** below this a score may have lost precision to underflow (a huge weight) */
const SMALLEST_TRUSTED = 1e-290;

/** Prepared once per route (and family) at config load; `order` is the per-request part. */
export function prepareRendezvous(targets: readonly WeightedTarget[]): Rendezvous {
  const prepared: Prepared[] = [];
  targets.forEach((t, index) => {
    if (t.weight > 0) prepared.push({ index, suffix: `\n${t.seat}/${t.model}`, weight: t.weight });
  });
  return {
    order(key: string): number[] {
      const scored: Scored[] = [];
      for (const p of prepared) scored.push(scoreOf(key, p));
      insertionSort(scored);
      return scored.map((s) => s.index);
    },
  };
}

function scoreOf(key: string, p: Prepared): Scored {
  const h = hash('sha256', key + p.suffix, 'buffer');
  return scored(p.index, h.readUInt32BE(0), h.readUInt32BE(4), p.weight);
}

/** The score of N = hi·2^32 + lo under a weight (> 0), for the target at configured `index`. */
export function scored(index: number, hi: number, lo: number, weight: number): Scored {
  return { index, score: negLogU(hi, lo) / weight, hi, lo, weight };
}

/** -ln(u) for u = (hi·2^32 + lo + 0.5) / 2^64, to a few units in the last place. */
export function negLogU(hi: number, lo: number): number {
  if (hi < 0x8000_0000) {
    // u < 1/2: u keeps its relative precision and |ln u| ≥ ln 2 keeps ln's
    return -Math.log((hi * TWO_POW_32 + lo + 0.5) * TWO_POW_MINUS_64);
  }
  // u ≥ 1/2: 1 − u = (M + 0.5) / 2^64 with M = 2^64 − 1 − N, the bitwise complement
  const rest = ((~hi >>> 0) * TWO_POW_32 + (~lo >>> 0) + 0.5) * TWO_POW_MINUS_64;
  return -Math.log1p(-rest);
}

/** The order's comparison: the doubles when they are safely apart, else exactly; then configured order. */
export function compareScored(a: Scored, b: Scored): number {
  const low = Math.min(a.score, b.score);
  const high = Math.max(a.score, b.score);
  if (high - low > CLOSE * high && low > SMALLEST_TRUSTED) return a.score - b.score;
  return compareExactScores(a, b) || a.index - b.index;
}

/** Chains are 2–4 targets: a stable insertion sort beats the general sort's setup. */
function insertionSort(items: Scored[]): void {
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    let j = i - 1;
    while (j >= 0 && compareScored(items[j]!, item) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = item;
  }
}
