/**
 * Which route a requested model name reaches: an
 * exact route name wins, then an exact alias name, then the matching `*`
 * pattern with the most non-`*` characters (ties in the order written).
 * Aliases chain (each step resolved the same way); a cycle resolves back to
 * the requested name, which is then a route or unknown.
 *
 * Everything that does not depend on the request is worked out at config
 * load: each alias and each pattern already knows the route it ends at, so a
 * request costs a map lookup or a few pattern matches.
 */

export interface AliasResolver {
  /** the route `requested` reaches, or null: an unknown model */
  resolve(requested: string): string | null;
  /** `name` is a route or an alias exactly (exact names win over pins and patterns) */
  isExactName(name: string): boolean;
}

interface Pattern {
  /** the literal pieces between the `*`s (first and last may be empty) */
  readonly pieces: readonly string[];
  /** how many characters the pieces add up to */
  readonly literalLength: number;
  /** what the alias names */
  readonly target: string;
  /** the route `target` reaches, or null; set once every pattern is known */
  route: string | null;
}

/** Compiled once per config; `resolve` is the per-request part. */
export function compileAliases(routeNames: Iterable<string>, aliases: Readonly<Record<string, string>>): AliasResolver {
  const routes = new Set(routeNames);
  const targets = new Map<string, string>();
  const written: { pattern: Pattern; specificity: number; order: number }[] = [];
  for (const [name, target] of Object.entries(aliases)) {
    if (!name.includes('*')) {
      targets.set(name, target);
      continue;
    }
    const pieces = name.split('*');
    const literalLength = pieces.reduce((n, piece) => n + piece.length, 0);
    const specificity = [...name].length - (pieces.length - 1);
    written.push({ pattern: { pieces, literalLength, target, route: null }, specificity, order: written.length });
  }
  written.sort((a, b) => b.specificity - a.specificity || a.order - b.order);
  const patterns = written.map((w) => w.pattern);

  /** Follows a name to its route. A cycle comes back to the requested name, which is never a route here. */
  const follow = (requested: string): string | null => {
    const seen = new Set<string>();
    let name = requested;
    for (;;) {
      if (routes.has(name)) return name;
      if (seen.has(name)) return null;
      seen.add(name);
      const next = targets.get(name) ?? firstMatch(patterns, name)?.target;
      if (next === undefined) return null;
      name = next;
    }
  };

  const exact = new Map<string, string | null>();
  for (const name of targets.keys()) exact.set(name, follow(name));
  for (const pattern of patterns) pattern.route = follow(pattern.target);

  return {
    resolve(requested: string): string | null {
      if (routes.has(requested)) return requested;
      const aliased = exact.get(requested);
      if (aliased !== undefined) return aliased;
      const pattern = firstMatch(patterns, requested);
      return pattern === undefined ? null : pattern.route;
    },
    isExactName(name: string): boolean {
      return routes.has(name) || exact.has(name);
    },
  };
}

function firstMatch(patterns: readonly Pattern[], name: string): Pattern | undefined {
  for (const p of patterns) if (matches(p, name)) return p;
  return undefined;
}

/** A glob of `*`s only: the first piece is a prefix, the last a suffix, the middle ones in order between. */
function matches(p: Pattern, name: string): boolean {
  if (name.length < p.literalLength) return false;
  const first = p.pieces[0]!;
  const last = p.pieces[p.pieces.length - 1]!;
  if (!name.startsWith(first) || !name.endsWith(last)) return false;
  const limit = name.length - last.length;
  let at = first.length;
  for (let i = 1; i < p.pieces.length - 1; i++) {
    const piece = p.pieces[i]!;
    const found = name.indexOf(piece, at);
    if (found === -1 || found + piece.length > limit) return false;
    at = found + piece.length;
  }
  return at <= limit;
}
