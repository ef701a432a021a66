import type { z } from 'zod';

/**
 * Walking a zod schema beside the document it validates. zod has no public
 * reflection for this; `_zod.def` is the documented shape its own tools
 * (JSON Schema output) read.
 */
interface Def {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  out?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return schema._zod.def as unknown as Def;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every part of `value` the schema accepts, each checked on its own: a list
 * keeps its positions (an entry that fails is `undefined`, so paths still
 * point at the document), a mapping keeps the keys whose values pass, a
 * missing key gets its default. A present but invalid value becomes
 * `undefined` — unknown, never its default: checks that run on the result
 * must not reason about a value the person did not write.
 */
export function salvage(schema: z.ZodType, value: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'default':
    case 'prefault':
      return value === undefined ? accepted(schema, value) : salvage(def.innerType!, value);
    case 'optional':
      return value === undefined ? undefined : salvage(def.innerType!, value);
    case 'nullable':
      return value === null ? null : salvage(def.innerType!, value);
    case 'object': {
      if (!isMapping(value)) return undefined;
      const kept: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape!)) {
        const part = salvage(field, value[key]);
        if (part !== undefined) kept[key] = part;
      }
      return kept;
    }
    case 'array':
      return Array.isArray(value) ? value.map((entry) => salvage(def.element!, entry)) : undefined;
    case 'record': {
      if (!isMapping(value)) return undefined;
      const kept: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(value)) {
        const part = salvage(def.valueType!, entry);
        if (def.keyType!.safeParse(key).success && part !== undefined) kept[key] = part;
      }
      return kept;
    }
    default:
      return accepted(schema, value);
  }
}

function accepted(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** The keys the schema allows in the mapping at `path` (none when it is not a mapping). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let at: z.ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    if (at === undefined) return [];
    const def = defOf(at);
    if (def.type === 'object') at = def.shape![String(segment)];
    else if (def.type === 'array') at = def.element;
    else if (def.type === 'record') at = def.valueType;
    else return [];
    at = at && unwrap(at);
  }
  if (at === undefined) return [];
  const def = defOf(at);
  return def.type === 'object' ? Object.keys(def.shape!) : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (def.innerType && ['default', 'prefault', 'optional', 'nullable'].includes(def.type)) return unwrap(def.innerType);
  if (def.type === 'pipe' && def.out) return unwrap(def.out);
  return schema;
}
