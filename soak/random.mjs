/**
 * A small seeded PRNG (mulberry32), so a soak run can be repeated with
 * `--seed N` when it finds something.
 */
export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** integer in [min, max] */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    /** picks from `[[value, weight], …]` */
    weighted(table) {
      const total = table.reduce((sum, [, w]) => sum + w, 0);
      let roll = next() * total;
      for (const [value, weight] of table) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return table[table.length - 1][0];
    },
  };
}
