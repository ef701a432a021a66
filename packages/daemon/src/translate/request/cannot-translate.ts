/**
 * Thrown deep inside a request mapping and caught once, in
 * `translateRequest`, which turns it into a value: a mapping walks nested
 * content, and the first part it cannot carry ends the whole translation.
 */
export class CannotTranslate extends Error {
  constructor(
    /** `untranslatable`: valid for the agent's wire, but the target's wire cannot carry it; `invalid`: not a valid request at all */
    readonly reason: 'untranslatable' | 'invalid',
    /** names the part: `document block`, `n=2`, `messages[3].content: expected an array or a string` */
    readonly detail: string,
  ) {
    super(detail);
  }
}

export function untranslatable(detail: string): never {
  throw new CannotTranslate('untranslatable', detail);
}

export function malformed(path: string, expected: string): never {
  throw new CannotTranslate('invalid', `${path}: expected ${expected}`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function arrayAt<T>(value: unknown, path: string): T[] {
  if (!Array.isArray(value)) malformed(path, 'an array');
  return value as T[];
}

export function objectAt<T>(value: unknown, path: string): T {
  if (!isObject(value)) malformed(path, 'an object');
  return value as T;
}

/** Present and not null: optional fields of all three wires may be sent as `null`. */
export function given<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}
