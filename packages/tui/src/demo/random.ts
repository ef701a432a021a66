import type { Range } from './scenario/schema.js';

/** A small seeded generator (mulberry32) so an agent's mix is the same run to run. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** uniform in [0, 1) */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  between([min, max]: Range): number {
    return min + (max - min) * this.next();
  }

  int([min, max]: Range): number {
    return Math.floor(min + (max - min + 1) * this.next());
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** picks by relative weight; weights of 0 are never picked */
  weighted<T>(items: readonly T[], weightOf: (item: T) => number): T {
    const total = items.reduce((sum, i) => sum + weightOf(i), 0);
    let roll = this.next() * total;
    for (const item of items) {
      roll -= weightOf(item);
      if (roll < 0 && weightOf(item) > 0) return item;
    }
    return this.pick(items.filter((i) => weightOf(i) > 0));
  }
}
