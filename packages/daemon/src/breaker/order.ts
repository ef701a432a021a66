/**
 * Deprioritize, never remove: entries that can be tried now keep their
 * configured order at the front, tripped ones follow in configured order.
 * When nothing can be tried now the breaker steps aside (fail open) and the
 * configured order stands as if influence were off.
 */
export function orderByHealth<T>(entries: readonly T[], isUsable: (entry: T) => boolean): { ordered: T[]; failOpen: boolean } {
  const front: T[] = [];
  const back: T[] = [];
  for (const entry of entries) (isUsable(entry) ? front : back).push(entry);
  if (front.length === 0) return { ordered: entries.slice(), failOpen: entries.length > 0 };
  if (back.length === 0) return { ordered: front, failOpen: false };
  return { ordered: front.concat(back), failOpen: false };
}
