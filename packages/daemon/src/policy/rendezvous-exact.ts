/**
 * The exact comparison of two rendezvous scores, for the rare pair whose
 * double-precision scores are too close to order safely (see rendezvous.ts).
 *
 * A target's score is `-ln(u) / weight` with `u = (N + 0.5) / 2^64`, that is
 * `u = (2N + 1) / 2^65` with an odd numerator. Two scores are exactly equal
 * only when the weights are equal and so are the two N: for weights in a
 * rational ratio r/s in lowest terms, equality means `u_a^s = u_b^r`, and
 * with odd numerators over powers of two that forces r = s (and then
 * N_a = N_b). Weights are doubles, so always rational. So:
 * - equal weights: the larger N has the smaller score, and equal N tie;
 * - different weights: never a tie, and evaluating both logarithms with
 *   enough bits always separates them. They are computed in BigInt fixed
 *   point with a proven error bound, doubling the precision until the two
 *   intervals are apart.
 */

/** The first 8 bytes of a target's hash as two unsigned 32-bit halves, and its weight (> 0). */
export interface ScoreInput {
  readonly hi: number;
  readonly lo: number;
  readonly weight: number;
}

const START_BITS = 128;
/**
 * No pair of 64-bit values and 53-bit weights comes near needing this many
 * bits; the cap only guarantees the loop ends if that reasoning were wrong,
 * and then the configured order decides.
 */
const MAX_BITS = 16_384;

/** < 0: `a` scores lower (goes first); > 0: `b` does; 0: the same weight and the same N. */
export function compareExactScores(a: ScoreInput, b: ScoreInput): number {
  if (a.weight === b.weight) {
    // -ln is decreasing: the larger N has the smaller score
    if (a.hi !== b.hi) return b.hi - a.hi;
    return b.lo - a.lo;
  }
  const wa = dyadic(a.weight);
  const wb = dyadic(b.weight);
  const oa = oddNumerator(a);
  const ob = oddNumerator(b);
  for (let bits = START_BITS; bits <= MAX_BITS; bits *= 2) {
    const la = negLn(oa, bits);
    const lb = negLn(ob, bits);
    // a's score la / (ma / 2^ea) against lb / (mb / 2^eb): cross-multiplied, all positive
    const scaleA = wb.mantissa << BigInt(wa.exponent);
    const scaleB = wa.mantissa << BigInt(wb.exponent);
    const aLow = (la.value - la.error) * scaleA;
    const aHigh = (la.value + la.error) * scaleA;
    const bLow = (lb.value - lb.error) * scaleB;
    const bHigh = (lb.value + lb.error) * scaleB;
    if (aHigh < bLow) return -1;
    if (bHigh < aLow) return 1;
  }
  return 0;
}

/** 2N + 1 for N = hi·2^32 + lo. */
function oddNumerator(x: ScoreInput): bigint {
  return (((BigInt(x.hi) << 32n) | BigInt(x.lo)) << 1n) | 1n;
}

/** A positive finite double as mantissa / 2^exponent, exactly (doubling a double is exact). */
function dyadic(w: number): { mantissa: bigint; exponent: number } {
  let exponent = 0;
  let m = w;
  while (!Number.isInteger(m)) {
    m *= 2;
    exponent++;
  }
  return { mantissa: BigInt(m), exponent };
}

/** A fixed-point value (scaled by 2^bits) and a bound on its error, in the same units. */
interface Approx {
  value: bigint;
  error: bigint;
}

/**
 * -ln(o / 2^65) = 65·ln 2 − ln o, for odd 1 ≤ o < 2^65. With o = m·2^k,
 * m in [1, 2): (65 − k)·ln 2 − ln m, each logarithm as 2·atanh((x−1)/(x+1)).
 */
function negLn(o: bigint, bits: number): Approx {
  const k = o.toString(2).length - 1;
  const power = 1n << BigInt(k);
  const ln2 = atanhFixed(1n, 3n, bits);
  const lnM = atanhFixed(o - power, o + power, bits);
  const times = BigInt(65 - k);
  return {
    value: times * 2n * ln2.value - 2n * lnM.value,
    // each atanh is within 3 units per term + 3; doubled; ln 2 taken (65 − k) ≤ 65 times
    error: (times + 1n) * 2n * (3n * BigInt(ln2.terms + lnM.terms) + 6n),
  };
}

/**
 * atanh(num/den) for 0 ≤ num/den ≤ 1/3, scaled by 2^bits, truncating every
 * step. Each running power is within 2 units of the true one (the error
 * shrinks ninefold per step and each step adds at most 1 + 2/3), so each
 * term is within 3 and the tail after the last non-zero power within 3.
 */
function atanhFixed(num: bigint, den: bigint, bits: number): { value: bigint; terms: number } {
  const shift = BigInt(bits);
  const z = (num << shift) / den;
  const z2 = (z * z) >> shift;
  let power = z;
  let sum = 0n;
  let terms = 0;
  while (power > 0n) {
    sum += power / BigInt(2 * terms + 1);
    power = (power * z2) >> shift;
    terms++;
  }
  return { value: sum, terms };
}
