import type { z } from 'zod';

/**
 * Every key a schema allows, found by walking it, with its type and default
 * in words: what `docs/config.md` lists, and where an unknown key's hint
 * looks for a key of the same name. Paths are written as a person reads
 * them: `seats[].api_key_env` (`[]` is any entry of a list), `aliases.<name>`
 * (any key of a mapping whose keys are the person's own).
 */
export interface SchemaKey {
  path: string;
  /** the path's segments: a key, `[]` for a list entry, `<name>` for a key of the person's choosing */
  segments: readonly string[];
  /** the key as written in the document (the last named segment) */
  key: string;
  type: string;
  /** the default in YAML, or null when the key has none */
  defaultValue: string | null;
  required: boolean;
  /** the values a key with a fixed set of values may take */
  choices: readonly string[] | null;
}

/** A list entry and a key of the person's choosing, in a path. */
export const ENTRY = '[]';
export const ANY_NAME = '<name>';

interface Check {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  error?: (issue: unknown) => unknown;
}

/** zod keeps a schema's structure in `_zod.def`, the shape its own JSON Schema output reads. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  checks?: Array<{ _zod: { def: Check } }>;
}

function defOf(schema: z.ZodType): Def {
  return schema._zod.def as unknown as Def;
}

export function schemaKeys(schema: z.ZodType): SchemaKey[] {
  const keys: SchemaKey[] = [];
  collectChildren(schema, [], keys);
  // a key reached through two forms of a union is listed once
  const seen = new Set<string>();
  return keys.filter((k) => !seen.has(k.path) && seen.add(k.path));
}

/** The keys inside `schema` (a mapping, a list of mappings, a union holding them), under `at`. */
function collectChildren(schema: z.ZodType, at: string[], into: SchemaKey[]): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'default':
    case 'prefault':
    case 'optional':
    case 'nullable':
      return collectChildren(def.innerType!, at, into);
    case 'pipe':
      return collectChildren(def.out!, at, into);
    case 'union':
      for (const option of def.options!) collectChildren(option, at, into);
      return;
    case 'array':
      return collectChildren(def.element!, [...at, ENTRY], into);
    case 'record':
      return collectChildren(def.valueType!, [...at, ANY_NAME], into);
    case 'object':
      for (const [key, field] of Object.entries(def.shape!)) {
        const segments = [...at, key];
        into.push({
          path: pathWords(segments),
          segments,
          key,
          type: typeWords(field),
          defaultValue: defaultWords(field),
          required: isRequired(field),
          choices: choicesOf(field),
        });
        collectChildren(field, segments, into);
      }
      return;
    default:
      return;
  }
}

/** `['seats', '[]', 'id']` → `seats[].id` */
export function pathWords(segments: readonly string[]): string {
  return segments.map((s, i) => (s === ENTRY || i === 0 ? s : `.${s}`)).join('');
}

function isRequired(schema: z.ZodType): boolean {
  const type = defOf(schema).type;
  return type !== 'default' && type !== 'prefault' && type !== 'optional';
}

function defaultWords(schema: z.ZodType): string | null {
  const def = defOf(schema);
  if (def.type !== 'default' && def.type !== 'prefault') return null;
  return yamlValue(def.defaultValue);
}

function yamlValue(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

/** The values of a key with a fixed set of them (an enum, or a union of literals), else null. */
function choicesOf(schema: z.ZodType): string[] | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'default':
    case 'prefault':
    case 'optional':
      return choicesOf(def.innerType!);
    case 'pipe':
      return choicesOf(def.out!);
    case 'enum':
      return Object.values(def.entries!).map(String);
    default:
      return null;
  }
}

/** A schema's type in words: `whole number 1–5`, `one of ordered, spread`, `an http(s) URL or null`. */
export function typeWords(schema: z.ZodType): string {
  const def = defOf(schema);
  switch (def.type) {
    case 'default':
    case 'prefault':
    case 'optional':
      return typeWords(def.innerType!);
    case 'nullable': {
      const inner = typeWords(def.innerType!);
      return inner.startsWith('one of ') ? `${inner}, null` : `${inner} or null`;
    }
    case 'pipe':
      // a transform (`currency` upper-cased) says nothing of what to write: its input does
      return typeWords(defOf(def.out!).type === 'transform' ? def.in! : def.out!);
    case 'union':
      return def.options!.map(typeWords).join(' or ');
    case 'enum':
      return `one of ${Object.values(def.entries!).join(', ')}`;
    case 'literal':
      return def.values!.map((v) => yamlValue(v)).join(' or ');
    case 'boolean':
      return 'true or false';
    case 'string':
      return stringWords(def.checks ?? []);
    case 'number':
      return numberWords(def.checks ?? []);
    case 'array': {
      const element = typeWords(def.element!);
      const entries = element.startsWith('one of ') ? `list, each ${element}` : `list of ${plural(element)}`;
      return `${entries}${listBounds(def.checks ?? [])}`;
    }
    case 'record':
      return `mapping of names to ${plural(typeWords(def.valueType!))}`;
    case 'object':
      return 'mapping';
    default:
      return def.type;
  }
}

function plural(words: string): string {
  if (words === 'mapping') return 'mappings';
  if (words === 'string') return 'strings';
  return words;
}

/** The words the schema's own check gives (`expected an http(s) URL` → `an http(s) URL`), else `string`. */
function stringWords(checks: Def['checks'] & object): string {
  for (const { _zod } of checks) {
    const said = _zod.def.error?.({});
    if (typeof said === 'string' && said.startsWith('expected ')) return said.slice('expected '.length);
    if (_zod.def.format === 'regex' && _zod.def.pattern) return `string matching ${_zod.def.pattern}`;
  }
  return 'string';
}

function numberWords(checks: Def['checks'] & object): string {
  let whole = false;
  let low: { value: number; inclusive: boolean } | null = null;
  let high: { value: number; inclusive: boolean } | null = null;
  for (const { _zod } of checks) {
    const { check, value, inclusive, format } = _zod.def;
    if (check === 'number_format' && (format === 'safeint' || format === 'int32')) whole = true;
    if (check === 'greater_than') low = { value: Number(value), inclusive: inclusive === true };
    if (check === 'less_than') high = { value: Number(value), inclusive: inclusive === true };
  }
  const noun = whole ? 'whole number' : 'number';
  if (low?.inclusive && high?.inclusive) return `${noun} ${low.value}–${high.value}`;
  const bounds = [low && `${low.inclusive ? '≥' : '>'} ${low.value}`, high && `${high.inclusive ? '≤' : '<'} ${high.value}`];
  return [noun, ...bounds.filter((b) => b !== null)].join(' ');
}

function listBounds(checks: Def['checks'] & object): string {
  const min = checks.find(({ _zod }) => _zod.def.check === 'min_length')?._zod.def.minimum;
  return min === undefined || min < 1 ? '' : `, at least ${min}`;
}
