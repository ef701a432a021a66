/**
 * Counts under a fixed list of label values, kept as nested maps — one level
 * per label — so a request adds to a count with a few map lookups on strings
 * it already holds, and builds no key string (a joined key was most of what
 * counting a decision cost). The labels are read back only when scraped.
 */
type Level = Map<string, Level | number>;

export class CountTree {
  private readonly root: Level = new Map();

  /** @param depth how many label values every `add` gives */
  constructor(readonly depth: number) {}

  add(n: number, ...values: string[]): void {
    let level = this.root;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(values[i]!) as Level | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(values[i]!, next);
      }
      level = next;
    }
    level.set(values[last]!, ((level.get(values[last]!) as number | undefined) ?? 0) + n);
  }

  /** Every count with its label values, in the order they were first seen. */
  *entries(): Generator<[string[], number]> {
    yield* walk(this.root, []);
  }
}

function* walk(level: Level, above: string[]): Generator<[string[], number]> {
  for (const [value, next] of level) {
    if (typeof next === 'number') yield [[...above, value], next];
    else yield* walk(next, [...above, value]);
  }
}
