import type { z } from 'zod';

/**
 * zod's issues in the words a person editing a YAML file uses: `expected a
 * number, got "abc"`, `must be greater than 0`, `is required`. Passed to
 * `safeParse` as its error map, so a message the schema wrote itself (a
 * regex's `expected an id of …`) still wins over these.
 */
export function plainWords(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `expected ${typeWords(issue.expected)}, got ${valueWords(issue.input)}`;
    case 'too_small':
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false, issue.exact === true);
    case 'too_big':
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false, issue.exact === true);
    case 'invalid_value':
      if (issue.input === undefined) return requiredOneOf(issue.values);
      return `expected ${oneOf(issue.values.map(valueWords))}, got ${valueWords(issue.input)}`;
    case 'invalid_format':
      return invalidFormat(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return issue.keys.length === 1 ? 'unknown key' : `unknown keys ${issue.keys.join(', ')}`;
    case 'invalid_union':
      // a discriminated union names the values its key may take
      if (issue.errors.length === 0 && 'options' in issue && Array.isArray(issue.options) && issue.options.length > 0) {
        const key = 'discriminator' in issue ? issue.discriminator : undefined;
        const input = issue.input as Record<string, unknown> | undefined;
        const got = typeof key === 'string' && typeof input === 'object' && input !== null ? input[key] : issue.input;
        if (got === undefined) return requiredOneOf(issue.options);
        return `expected ${oneOf(issue.options.map(valueWords))}, got ${valueWords(got)}`;
      }
      return invalidUnion(issue.errors, issue.input);
    case 'invalid_key':
      // the path already ends in the key
      return `is not an allowed key: ${issue.issues.map((i) => i.message).join('; ')}`;
    case 'invalid_element':
      return `has an entry that is not allowed: ${issue.issues.map((i) => i.message).join('; ')}`;
    case 'custom':
      return 'is not valid here';
    default:
      return 'is not valid here';
  }
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping (key: value)',
  record: 'a mapping (key: value)',
  array: 'a list',
  tuple: 'a list',
  null: 'null',
  date: 'a date',
};

function typeWords(expected: string): string {
  return TYPE_WORDS[expected] ?? expected;
}

/** A value as the person wrote it, short: `"abc"`, `12`, `true`, `null`, `a list`. */
export function valueWords(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 37)}…` : value;
      return JSON.stringify(shown);
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return 'a mapping';
    default:
      return typeof value;
  }
}

/**
 * A key with a fixed set of values that was left out: `is required (one of
 * anthropic, openai)`. Missing is not a wrong value, so no `got nothing`;
 * the values are shown as they are written in YAML, unquoted.
 */
function requiredOneOf(values: readonly unknown[]): string {
  return `is required (one of ${values.map((v) => (typeof v === 'string' ? v : valueWords(v))).join(', ')})`;
}

function oneOf(words: string[]): string {
  if (words.length <= 1) return words[0] ?? 'nothing';
  if (words.length === 2) return `${words[0]} or ${words[1]}`;
  return `one of ${words.join(', ')}`;
}

function tooSmall(origin: string, min: number, inclusive: boolean, exact: boolean): string {
  switch (origin) {
    case 'string':
      if (exact) return `must be exactly ${min} characters long`;
      return min <= 1 ? 'must not be empty' : `must be at least ${min} characters long`;
    case 'array':
    case 'set':
      if (exact) return `needs exactly ${min} ${entries(min)}`;
      return min <= 1 ? 'must not be empty' : `needs at least ${min} ${entries(min)}`;
    default:
      return inclusive ? `must be at least ${min}` : `must be greater than ${min}`;
  }
}

function tooBig(origin: string, max: number, inclusive: boolean, exact: boolean): string {
  switch (origin) {
    case 'string':
      return exact ? `must be exactly ${max} characters long` : `must be at most ${max} characters long`;
    case 'array':
    case 'set':
      return exact ? `needs exactly ${max} ${entries(max)}` : `may hold at most ${max} ${entries(max)}`;
    default:
      return inclusive ? `must be at most ${max}` : `must be less than ${max}`;
  }
}

function entries(n: number): string {
  return n === 1 ? 'entry' : 'entries';
}

const FORMAT_WORDS: Record<string, string> = {
  email: 'an email address',
  url: 'a URL',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  datetime: 'a date and time (ISO 8601)',
  date: 'a date (YYYY-MM-DD)',
  time: 'a time (HH:MM[:SS])',
  duration: 'an ISO 8601 duration',
};

function invalidFormat(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidStringFormat>): string {
  const got = valueWords(issue.input);
  switch (issue.format) {
    case 'regex':
      return `${got} does not have the expected form (${issue.pattern ?? 'a pattern'})`;
    case 'starts_with':
      return `must start with ${JSON.stringify(issue.prefix)}, got ${got}`;
    case 'ends_with':
      return `must end with ${JSON.stringify(issue.suffix)}, got ${got}`;
    case 'includes':
      return `must contain ${JSON.stringify(issue.includes)}, got ${got}`;
    case 'lowercase':
      return `must be lowercase, got ${got}`;
    case 'uppercase':
      return `must be uppercase, got ${got}`;
    default:
      return `expected ${FORMAT_WORDS[issue.format] ?? issue.format}, got ${got}`;
  }
}

/**
 * None of the forms matched. When a form took the value's type but not its
 * content (`""` for "a path or false"), that form's complaint is the useful
 * one; otherwise every form is listed: `expected a string or false, got true`.
 */
function invalidUnion(branches: readonly (readonly z.core.$ZodIssue[])[], input: unknown): string {
  const expected: string[] = [];
  for (const issues of branches) {
    const [first] = issues;
    if (first === undefined) continue;
    const atTop = issues.length === 1 && first.path.length === 0;
    if (atTop && first.code === 'invalid_type') expected.push(typeWords(first.expected));
    else if (atTop && first.code === 'invalid_value') expected.push(...first.values.map(valueWords));
    else return first.message;
  }
  if (expected.length === 0) return 'is not one of the accepted forms';
  return `expected ${oneOf([...new Set(expected)])}, got ${valueWords(input)}`;
}
