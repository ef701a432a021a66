import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  configSchema,
  formatIssue,
  formatWarning,
  parseConfig,
  validateConfig,
  validateWithSchema,
  YAML_ERROR_WORDS,
} from '../src/index.js';

/** zod's own English (v4 locale) and the YAML library's token talk: never shown to a person. */
const RAW_WORDING =
  /\bInvalid\b|\breceived\b|Too (small|big)|Unrecognized|expected \w+ to (be|have)|[<>]=?\s?\d|\bNaN\b|undefined|\btoken\b|flow-(seq|map)|Nested mappings|Implicit keys|\[object /;

function messages(schema: z.ZodType, value: unknown): string[] {
  const result = validateWithSchema(value, 'f.yaml', schema);
  if (result.ok) throw new Error(`expected ${JSON.stringify(value)} to fail`);
  return result.issues.map((i) => (i.path === '' ? i.message : `${i.path}: ${i.message}`));
}

describe('plain words for every kind of zod issue', () => {
  it.each([
    ['invalid_type', z.strictObject({ n: z.number() }), { n: 'abc' }, 'n: expected a number, got "abc"'],
    ['invalid_type (missing)', z.strictObject({ n: z.number() }), {}, 'n: is required'],
    ['invalid_type (whole number)', z.strictObject({ n: z.number().int() }), { n: 1.5 }, 'n: expected a whole number, got 1.5'],
    ['invalid_type (boolean)', z.strictObject({ b: z.boolean() }), { b: 'yes' }, 'b: expected true or false, got "yes"'],
    ['invalid_type (list)', z.strictObject({ l: z.array(z.string()) }), { l: {} }, 'l: expected a list, got a mapping'],
    ['too_small (positive)', z.strictObject({ n: z.number().positive() }), { n: 0 }, 'n: must be greater than 0'],
    ['too_small (at least)', z.strictObject({ n: z.number().min(1) }), { n: 0 }, 'n: must be at least 1'],
    ['too_small (empty string)', z.strictObject({ s: z.string().min(1) }), { s: '' }, 's: must not be empty'],
    ['too_small (list)', z.strictObject({ l: z.array(z.number()).min(2) }), { l: [1] }, 'l: needs at least 2 entries'],
    ['too_big', z.strictObject({ n: z.number().max(5) }), { n: 6 }, 'n: must be at most 5'],
    ['too_big (below)', z.strictObject({ n: z.number().lt(5) }), { n: 5 }, 'n: must be less than 5'],
    ['too_big (list)', z.strictObject({ l: z.array(z.number()).max(1) }), { l: [1, 2] }, 'l: may hold at most 1 entry'],
    ['invalid_value (enum)', z.strictObject({ e: z.enum(['a', 'b', 'c']) }), { e: 'd' }, 'e: expected one of "a", "b", "c", got "d"'],
    ['invalid_value (enum, missing)', z.strictObject({ e: z.enum(['a', 'b', 'c']) }), {}, 'e: is required (one of a, b, c)'],
    ['invalid_value (literal)', z.strictObject({ e: z.literal(false) }), { e: true }, 'e: expected false, got true'],
    ['invalid_format (email)', z.strictObject({ s: z.email() }), { s: 'x' }, 's: expected an email address, got "x"'],
    [
      'invalid_format (regex)',
      z.strictObject({ s: z.string().regex(/^a+$/) }),
      { s: 'b' },
      's: "b" does not have the expected form (/^a+$/)',
    ],
    ['invalid_format (prefix)', z.strictObject({ s: z.string().startsWith('sk-') }), { s: 'x' }, 's: must start with "sk-", got "x"'],
    ['not_multiple_of', z.strictObject({ n: z.number().multipleOf(5) }), { n: 7 }, 'n: must be a multiple of 5'],
    [
      'unrecognized_keys',
      z.strictObject({ enabled: z.boolean() }),
      { enabled: true, enabeld: true },
      'enabeld: unknown key (did you mean enabled?)',
    ],
    ['unrecognized_keys (no near name)', z.strictObject({ enabled: z.boolean() }), { enabled: true, zzz: 1 }, 'zzz: unknown key'],
    [
      'invalid_union',
      z.strictObject({ p: z.union([z.string().min(1), z.literal(false)]) }),
      { p: true },
      'p: expected a string or false, got true',
    ],
    [
      'invalid_union (a form matched the type)',
      z.strictObject({ p: z.union([z.string().min(1), z.literal(false)]) }),
      { p: '' },
      'p: must not be empty',
    ],
    [
      'invalid_key',
      z.strictObject({ r: z.record(z.string().min(2), z.number()) }),
      { r: { b: 1 } },
      'r.b: is not an allowed key: must be at least 2 characters long',
    ],
    [
      'invalid_union (discriminated)',
      z.strictObject({
        p: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('ok') }), z.strictObject({ kind: z.literal('down') })]),
      }),
      { p: { kind: 'explode' } },
      'p.kind: expected "ok" or "down", got "explode"',
    ],
    [
      'invalid_union (discriminated, missing)',
      z.strictObject({
        p: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('ok') }), z.strictObject({ kind: z.literal('down') })]),
      }),
      { p: {} },
      'p.kind: is required (one of ok, down)',
    ],
    ['custom (refine without words)', z.strictObject({ s: z.string().refine((v) => v === 'x') }), { s: 'y' }, 's: is not valid here'],
  ])('%s', (_code, schema, value, expected) => {
    const out = messages(schema, value);
    expect(out).toEqual([expected]);
    for (const line of out) expect(line).not.toMatch(RAW_WORDING);
  });

  it('keeps the words the schema wrote itself', () => {
    expect(messages(z.strictObject({ s: z.string().regex(/^a$/, 'expected the letter a') }), { s: 'b' })).toEqual([
      's: expected the letter a',
    ]);
  });
});

/** Every leaf of the config schema, as a path to set in a document. */
function leafPaths(schema: z.ZodType, at: PropertyKey[] = []): PropertyKey[][] {
  const def = schema._zod.def as unknown as {
    type: string;
    innerType?: z.ZodType;
    shape?: Record<string, z.ZodType>;
    element?: z.ZodType;
    valueType?: z.ZodType;
    out?: z.ZodType;
  };
  switch (def.type) {
    case 'default':
    case 'prefault':
    case 'optional':
    case 'nullable':
      return leafPaths(def.innerType!, at);
    case 'pipe':
      return leafPaths(def.out!, at);
    case 'object':
      return [at, ...Object.entries(def.shape!).flatMap(([key, field]) => leafPaths(field, [...at, key]))];
    case 'array':
      return [at, ...leafPaths(def.element!, [...at, 0])];
    case 'record':
      return [at, ...leafPaths(def.valueType!, [...at, 'x-key'])];
    default:
      return [at];
  }
}

function setIn(doc: unknown, path: PropertyKey[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...PropertyKey[]];
  const copy = (Array.isArray(doc) ? [...doc] : { ...(doc as object) }) as Record<string | number, unknown>;
  copy[head] = setIn(copy[head] ?? (typeof rest[0] === 'number' ? [] : {}), rest, value);
  return copy;
}

const VALID = {
  seats: [{ id: 'a', provider: 'anthropic', base_url: 'https://api.anthropic.com', api_key_env: 'KEY_A' }],
  routes: [{ model: 'sonnet', chain: [{ seat: 'a', model: 'claude-sonnet-5' }] }],
};
const BAD_VALUES: unknown[] = ['abc', '', 'x'.repeat(300), -1, 0, 0.5, 70_000, 1e12, true, null, [], [1], {}, { zz: 1 }];

describe('every message the config layer can produce', () => {
  it('is one line in plain words: schema sweep over every key with wrong values', () => {
    const seen = new Set<string>();
    const paths = leafPaths(configSchema);
    expect(paths.length).toBeGreaterThan(25);
    for (const path of paths) {
      for (const bad of BAD_VALUES) {
        const result = validateConfig(setIn(VALID, path, bad), 'f.yaml', { KEY_A: 'k' });
        const lines = [...(result.ok ? [] : result.issues.map(formatIssue)), ...result.warnings.map(formatWarning)];
        for (const line of lines) {
          seen.add(line);
          expect(line, `${JSON.stringify(bad)} at ${String(path.join('.'))}`).not.toMatch(RAW_WORDING);
          expect(line).toMatch(/^f\.yaml: [^\n]+$/);
        }
      }
    }
    // the sweep really produced a spread of messages, not one repeated
    expect(seen.size).toBeGreaterThan(100);
  });

  it('is plain for cross-checks, the environment, warnings and an empty file', () => {
    const text = `
server: { listen: "0.0.0.0:4141" }
seats:
  - { id: a, provider: anthropic, base_url: "https://x", api_key_env: NOT_SET }
  - { id: a, provider: openai, base_url: "https://y", api_key_env: NOT_SET_EITHER }
  - { id: idle, provider: openai, base_url: "https://y", api_key_env: NOT_SET_EITHER }
routes:
  - { model: r, chain: [{ seat: a, model: m }, { seat: a, model: m }, { seat: ghost, model: m }] }
  - { model: r, chain: [{ seat: a, model: m }] }
influence: { max_cooldown_secs: 0.5 }
`;
    const result = parseConfig(text, 'f.yaml', {});
    const lines = [...(result.ok ? [] : result.issues.map(formatIssue)), ...result.warnings.map(formatWarning)];
    expect(lines.length).toBeGreaterThanOrEqual(10);
    const empty = parseConfig('# nothing yet\n', 'f.yaml', {});
    if (!empty.ok) lines.push(...empty.issues.map(formatIssue));
    for (const line of lines) expect(line).not.toMatch(RAW_WORDING);
  });

  it('is plain for every kind of YAML syntax error', () => {
    for (const words of Object.values(YAML_ERROR_WORDS)) expect(words).not.toMatch(RAW_WORDING);
    const broken = [
      'seats: [a, b\n',
      'a: 1\na: 2\n',
      'seats:\n\t- a\n',
      'a: "unclosed\n',
      'a: b: c\n',
      'a:\n  - b\n c: d\n',
      '---\na: 1\n---\nb: 2\n',
      'a: *nowhere\n',
      'a: {b: 1]\n',
      '@a: 1\n',
    ];
    for (const text of broken) {
      const result = parseConfig(text, 'f.yaml', {});
      expect(result.ok, text).toBe(false);
      if (result.ok) continue;
      for (const issue of result.issues) {
        expect(formatIssue(issue)).toMatch(/^f\.yaml: invalid YAML: [^\n]+$/);
        expect(issue.message).not.toMatch(RAW_WORDING);
      }
    }
  });
});

describe('a YAML indentation mistake', () => {
  const yamlLines = (text: string): string[] => {
    const result = parseConfig(text, 'f.yaml', {});
    if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
    return result.issues.map(formatIssue);
  };

  it('a key indented less than the keys above it in a list entry: says how each is indented, on its line (not a missing quote)', () => {
    const text = ['seats:', '  - id: a', '    provider: anthropic', '   base_url: https://x', '    api_key_env: K'].join('\n');
    expect(yamlLines(text)).toEqual([
      'f.yaml: invalid YAML: this line is indented by 3 spaces, the line above by 4 spaces: the keys of one mapping, and the entries of one list, start in the same column (line 4)',
    ]);
  });

  it('a key indented less than its neighbours in a mapping', () => {
    expect(yamlLines('influence:\n  enabled: true\n cooldown_secs: 3\n')).toEqual([
      'f.yaml: invalid YAML: this line is indented by 1 space, the line above by 2 spaces: the keys of one mapping, and the entries of one list, start in the same column (line 3)',
    ]);
  });

  it('a key indented further than the one above, which has its value: one line, pointing at the indented one', () => {
    const text = ['seats:', '  - id: a', '    provider: anthropic', '      base_url: https://x'].join('\n');
    expect(yamlLines(text)).toEqual([
      'f.yaml: invalid YAML: this line is indented further than the line above (6 spaces against 4), whose key already has a value: line the two up (line 4)',
    ]);
  });

  it('a list entry out of line with the entries above it', () => {
    expect(yamlLines('routes:\n  - model: x\n    chain:\n    - { seat: a, model: b }\n      - { seat: c, model: d }\n')).toEqual([
      'f.yaml: invalid YAML: this line is indented by 6 spaces, the line above by 4 spaces: the keys of one mapping, and the entries of one list, start in the same column (line 5)',
    ]);
  });

  it('a quote that is really missing still says so', () => {
    expect(yamlLines('a: "unclosed\nb: 1\n')).toEqual([
      'f.yaml: invalid YAML: a quoted value that starts above never ends: its closing quote is missing (line 3)',
    ]);
  });

  it('an unclosed [ says which bracket', () => {
    expect(yamlLines('seats: [a, b\nroutes: []\n')).toEqual([
      'f.yaml: invalid YAML: a [ list that starts above is not closed with ] (or its next line is not indented under its key) (line 2)',
    ]);
  });
});
