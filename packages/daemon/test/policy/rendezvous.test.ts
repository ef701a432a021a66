import { createHash } from 'node:crypto';
import { orderChain } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { compareExactScores } from '../../src/policy/rendezvous-exact.js';
import { compareScored, prepareRendezvous, scored, type WeightedTarget } from '../../src/policy/rendezvous.js';

/** `seat/model` with a weight, from `"seat/model"`. */
function target(label: string, weight = 1): WeightedTarget {
  const [seat, model] = label.split('/') as [string, string];
  return { seat, model, weight };
}

function labels(targets: readonly WeightedTarget[], order: readonly number[]): string[] {
  return order.map((i) => `${targets[i]!.seat}/${targets[i]!.model}`);
}

/**
 * The spec's formula written the plain way, independently of the daemon's
 * code: BigInt for the first 8 bytes, then doubles. It can differ from the
 * exact order only for two scores within a rounding of each other, which
 * random keys do not produce.
 */
function referenceOrder(key: string, targets: readonly WeightedTarget[]): string[] {
  return targets
    .map((t, index) => {
      const label = `${t.seat}/${t.model}`;
      const n = createHash('sha256').update(`${key}\n${label}`, 'utf8').digest().readBigUInt64BE(0);
      const u = (Number(n) + 0.5) / 2 ** 64;
      return { label, index, weight: t.weight, score: -Math.log(u) / t.weight };
    })
    .filter((s) => s.weight > 0)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map((s) => s.label);
}

const halves = (n: bigint): { hi: number; lo: number } => ({ hi: Number(n >> 32n), lo: Number(n & 0xffff_ffffn) });

/** mulberry32, seeded: the same keys and values on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function random64(next: () => number): bigint {
  return (BigInt(Math.floor(next() * 2 ** 32)) << 32n) | BigInt(Math.floor(next() * 2 ** 32));
}

describe('the formula', () => {
  const sonnet = [target('max-1/claude-sonnet-4-5', 2), target('max-2/claude-sonnet-4-5'), target('api/claude-sonnet-4-5')];
  const four = [target('a/m'), target('b/m'), target('c/m'), target('d/m')];
  const fractional = [target('work/gpt-5', 0.3), target('personal/gpt-5', 0.7)];

  // Computed outside this code base: SHA-256 over UTF-8 and 80-digit decimal logarithms.
  it.each([
    [sonnet, 'session-1', ['api/claude-sonnet-4-5', 'max-1/claude-sonnet-4-5', 'max-2/claude-sonnet-4-5']],
    [sonnet, 'user_abc_account_123_session_9f8e', ['max-1/claude-sonnet-4-5', 'api/claude-sonnet-4-5', 'max-2/claude-sonnet-4-5']],
    [sonnet, '5e1d7a2b-6c1b-4b8e-9f5a-1a2b3c4d5e6f', ['max-1/claude-sonnet-4-5', 'api/claude-sonnet-4-5', 'max-2/claude-sonnet-4-5']],
    [sonnet, 'é-ключ-🙂', ['max-1/claude-sonnet-4-5', 'api/claude-sonnet-4-5', 'max-2/claude-sonnet-4-5']],
    [sonnet, '', ['max-1/claude-sonnet-4-5', 'max-2/claude-sonnet-4-5', 'api/claude-sonnet-4-5']],
    [four, 'session-1', ['d/m', 'c/m', 'b/m', 'a/m']],
    [four, 'user_abc_account_123_session_9f8e', ['a/m', 'd/m', 'b/m', 'c/m']],
    [four, '5e1d7a2b-6c1b-4b8e-9f5a-1a2b3c4d5e6f', ['a/m', 'd/m', 'c/m', 'b/m']],
    [four, 'é-ключ-🙂', ['b/m', 'a/m', 'c/m', 'd/m']],
    [four, '', ['c/m', 'b/m', 'a/m', 'd/m']],
    [fractional, 'session-1', ['personal/gpt-5', 'work/gpt-5']],
  ])('pinned vector %#: key %j', (targets, key, expected) => {
    expect(labels(targets, prepareRendezvous(targets).order(key))).toEqual(expected);
  });

  it('agrees with the plain BigInt-and-doubles reading of the spec on 3,000 keys and random weights', () => {
    const next = prng(1);
    for (let i = 0; i < 3000; i++) {
      const size = 2 + (i % 4);
      const targets = Array.from({ length: size }, (_, j) =>
        target(`seat-${j}/model-${i % 3}`, [0, 0.5, 1, 2, 3.7][Math.floor(next() * 5)]),
      );
      const key = `key-${i}-${next()}`;
      expect(labels(targets, prepareRendezvous(targets).order(key))).toEqual(referenceOrder(key, targets));
    }
  });

  it('never lists a drained (weight 0) target', () => {
    const targets = [target('a/m', 0), target('b/m'), target('c/m', 0)];
    const rendezvous = prepareRendezvous(targets);
    for (let i = 0; i < 200; i++) expect(rendezvous.order(`k${i}`)).toEqual([1]);
    expect(prepareRendezvous([target('a/m', 0)]).order('k')).toEqual([]);
  });
});

describe('exactness where doubles run out of digits', () => {
  it('equal weights: a 64-bit value one above another goes first even where both round to the same double', () => {
    const n = 1n << 62n;
    const low = halves(n);
    const high = halves(n + 1n);
    // (2^62 + 0.5) and (2^62 + 1.5) are the same double, and so are their scores
    expect(scored(0, low.hi, low.lo, 1).score).toBe(scored(1, high.hi, high.lo, 1).score);
    expect(compareScored(scored(0, low.hi, low.lo, 1), scored(1, high.hi, high.lo, 1))).toBeGreaterThan(0);
    expect(compareScored(scored(0, high.hi, high.lo, 1), scored(1, low.hi, low.lo, 1))).toBeLessThan(0);
    // the very same value: a true tie, configured order
    expect(compareScored(scored(0, low.hi, low.lo, 1), scored(1, low.hi, low.lo, 1))).toBeLessThan(0);
    expect(compareScored(scored(1, low.hi, low.lo, 1), scored(0, low.hi, low.lo, 1))).toBeGreaterThan(0);
  });

  it('near 1 (N close to 2^64) the scores keep every digit, so neighbours are told apart', () => {
    const top = (1n << 64n) - 1n;
    const a = halves(top - 7n);
    const b = halves(top - 6n);
    const sa = scored(0, a.hi, a.lo, 1).score;
    const sb = scored(1, b.hi, b.lo, 1).score;
    // -ln(1 − x) ≈ x: (8 − 0.5)/2^64 and (7 − 0.5)/2^64
    expect(sa / 2 ** -64).toBeCloseTo(7.5, 9);
    expect(sb / 2 ** -64).toBeCloseTo(6.5, 9);
    expect(compareScored(scored(0, a.hi, a.lo, 1), scored(1, b.hi, b.lo, 1))).toBeGreaterThan(0);
  });

  /**
   * Integer weights make the exact order an integer question: for weights 2
   * and 1, a's score −ln(u_a)/2 is below b's −ln(u_b) exactly when
   * u_a > u_b², i.e. (2N_a + 1)·2^65 > (2N_b + 1)². Values of N_a around the
   * crossing have scores equal or nearly so as doubles; the order must still
   * be the integers' verdict.
   */
  it.each([
    [2, 1],
    [3, 2],
    [1, 3],
  ])('weights %d and %d: the order around a near-tie is the exact one', (wa, wb) => {
    const ra = BigInt(wa);
    const rb = BigInt(wb);
    // −ln(u_a)/ra < −ln(u_b)/rb ⇔ u_a^rb > u_b^ra ⇔ (2N_a+1)^rb · 2^(65·ra) > (2N_b+1)^ra · 2^(65·rb)
    const aFirst = (na: bigint, nb: bigint): boolean =>
      (2n * na + 1n) ** rb * (1n << (65n * ra)) > (2n * nb + 1n) ** ra * (1n << (65n * rb));
    const next = prng(wa * 10 + wb);
    let closeCalls = 0;
    for (let i = 0; i < 300; i++) {
      const nb = (1n << 63n) + (random64(next) >> 1n);
      // N_a at the crossing: u_a = u_b^(ra/rb), found by bisection on the integers
      let lo = 0n;
      let hi = (1n << 64n) - 1n;
      while (hi - lo > 1n) {
        const mid = (lo + hi) / 2n;
        if (aFirst(mid, nb)) hi = mid;
        else lo = mid;
      }
      for (let na = lo - 2n; na <= lo + 3n; na++) {
        if (na < 0n || na >= 1n << 64n) continue;
        const a = halves(na);
        const b = halves(nb);
        const sa = scored(0, a.hi, a.lo, wa);
        const sb = scored(1, b.hi, b.lo, wb);
        if (Math.abs(sa.score - sb.score) <= 2 ** -40 * Math.max(sa.score, sb.score)) closeCalls++;
        expect(compareScored(sa, sb) < 0).toBe(aFirst(na, nb));
        expect(compareScored(sb, sa) < 0).toBe(!aFirst(na, nb));
      }
    }
    // the near-ties really went to the exact comparison
    expect(closeCalls).toBeGreaterThan(1000);
  });

  it('the exact comparison agrees with the doubles wherever they are far apart', () => {
    const next = prng(5);
    for (let i = 0; i < 500; i++) {
      const a = { ...halves(random64(next)), weight: [0.25, 1, 3, 0.1][i % 4]! };
      const b = { ...halves(random64(next)), weight: [1, 2, 0.3, 7][i % 4]! };
      const da = scored(0, a.hi, a.lo, a.weight).score;
      const db = scored(1, b.hi, b.lo, b.weight).score;
      if (Math.abs(da - db) < 1e-9 * Math.max(da, db)) continue;
      expect(Math.sign(compareExactScores(a, b))).toBe(Math.sign(da - db));
    }
  });
});

describe('stickiness', () => {
  const targets = [target('max-1/claude-sonnet-4-5', 2), target('max-2/claude-sonnet-4-5'), target('max-3/claude-sonnet-4-5')];

  it('the same key always gets the same order, in this daemon and in another one', () => {
    const here = prepareRendezvous(targets);
    const there = prepareRendezvous(targets.map((t) => ({ ...t })));
    const firsts = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const key = `conversation-${i}`;
      const order = here.order(key);
      expect(here.order(key)).toEqual(order);
      expect(there.order(key)).toEqual(order);
      firsts.add(order[0]!);
    }
    expect(firsts.size).toBe(3);
  });

  it('does not depend on where a target is written, only on what it is', () => {
    const reversed = [...targets].reverse();
    const a = prepareRendezvous(targets);
    const b = prepareRendezvous(reversed);
    for (let i = 0; i < 1000; i++) {
      expect(labels(reversed, b.order(`k${i}`))).toEqual(labels(targets, a.order(`k${i}`)));
    }
  });
});

describe('first-choice shares follow the weights', () => {
  it.each([[[2, 1, 1, 0]], [[3, 1]], [[1, 1, 1, 1]], [[0.5, 2.5, 1]]])(
    'weights %j over 10,000 keys: each share within 2 points of weight / total',
    (weights) => {
      const targets = weights.map((w, i) => target(`seat-${i}/claude-sonnet-4-5`, w));
      const rendezvous = prepareRendezvous(targets);
      const firsts = weights.map(() => 0);
      const keys = 10_000;
      for (let i = 0; i < keys; i++) firsts[rendezvous.order(`session-${i}`)[0]!]!++;
      const total = weights.reduce((a, b) => a + b, 0);
      weights.forEach((w, i) => {
        expect(Math.abs(firsts[i]! / keys - w / total), `seat-${i}: ${firsts[i]} of ${keys}`).toBeLessThanOrEqual(0.02);
      });
    },
  );
});

describe('minimal movement', () => {
  const keys = Array.from({ length: 10_000 }, (_, i) => `agent-${i}`);

  it('adding a target moves only the sessions it wins, and keeps every other order as it was', () => {
    const before = [target('max-1/claude-sonnet-4-5'), target('max-2/claude-sonnet-4-5', 2), target('api/claude-sonnet-4-5')];
    const after = [...before, target('max-3/claude-sonnet-4-5')];
    const a = prepareRendezvous(before);
    const b = prepareRendezvous(after);
    let moved = 0;
    for (const key of keys) {
      const old = labels(before, a.order(key));
      const now = labels(after, b.order(key));
      expect(now.filter((l) => l !== 'max-3/claude-sonnet-4-5')).toEqual(old);
      if (now[0] !== old[0]) {
        expect(now[0]).toBe('max-3/claude-sonnet-4-5');
        moved++;
      }
    }
    // the newcomer wins its weight's share (1 of 5), and only that
    expect(Math.abs(moved / keys.length - 0.2)).toBeLessThanOrEqual(0.02);
  });

  it('a tripped target (the breaker reorders after the base order) moves only its own sessions, and they come back', () => {
    const targets = [target('max-1/claude-sonnet-4-5', 2), target('max-2/claude-sonnet-4-5'), target('max-3/claude-sonnet-4-5')];
    const rendezvous = prepareRendezvous(targets);
    const tripped = 0;
    let moved = 0;
    let owned = 0;
    for (const key of keys) {
      const base = rendezvous.order(key);
      const whileTripped = orderChain(base, (i) => i !== tripped);
      const afterwards = orderChain(base, () => true);
      expect(whileTripped.failOpen).toBe(false);
      if (base[0] === tripped) {
        owned++;
        // its sessions go to their own second choice, and the tripped target waits at the back
        expect(whileTripped.ordered).toEqual([...base.slice(1), tripped]);
      } else {
        expect(whileTripped.ordered[0]).toBe(base[0]);
      }
      if (whileTripped.ordered[0] !== base[0]) moved++;
      expect(afterwards.ordered).toEqual(base);
    }
    expect(moved).toBe(owned);
    expect(owned).toBeGreaterThan(keys.length / 3);
  });
});
