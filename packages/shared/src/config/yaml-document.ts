import { LineCounter, parseDocument, isMap, isNode, isScalar, isSeq, type Document, type ErrorCode } from 'yaml';
import type { z } from 'zod';
import { plainWords } from './plain-words.js';
import { unknownKeyMessage } from './unknown-key.js';
import { YAML_ERROR_WORDS, yamlErrorWords } from './yaml-error-words.js';

export { YAML_ERROR_WORDS } from './yaml-error-words.js';

/** One problem in a YAML file, printed as `FILE: path.to.key: message (line N)`. */
export interface ConfigIssue {
  /** '' when there is no file (none was found): the line then starts with `routeplane: ` */
  file: string;
  path: string;
  message: string;
  line?: number;
  /** the environment variable this problem is about, when it is one the config names that is not set */
  unsetVariable?: string;
}

/** A problem found after the schema: a path into the document and what is wrong there. */
export interface RawIssue {
  path: PropertyKey[];
  message: string;
  unsetVariable?: string;
}

export type LineFor = (path: PropertyKey[]) => number | undefined;

export type SchemaParse<T> = { ok: true; data: T; locate: (issues: RawIssue[]) => ConfigIssue[] } | { ok: false; issues: ConfigIssue[] };

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.path === '' ? '' : `${issue.path}: `;
  const line = issue.line === undefined ? '' : ` (line ${issue.line})`;
  return `${issue.file || 'routeplane'}: ${where}${issue.message}${line}`;
}

/** A warning: `FILE: warning: path.to.key: message (line N)`. */
export function formatWarning(issue: ConfigIssue): string {
  return formatIssue({ ...issue, path: issue.path === '' ? 'warning' : `warning: ${issue.path}` });
}

export type YamlRead = { ok: true; raw: unknown; lineFor: LineFor } | { ok: false; issues: ConfigIssue[] };

/** Parses YAML text into plain data, with a way back from a path in it to its line. */
export function readYamlDocument(text: string, file: string): YamlRead {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const lines = text.split(/\r?\n/);
    const issues: ConfigIssue[] = [];
    let indentationSaid = false;
    for (const error of doc.errors) {
      const { message, line, indentation } = yamlErrorWords(error, lines);
      // One mistake often trips several of the library's rules: said once per line. A line out
      // of its column throws the lines below it off too: the first one is the one to fix.
      if (issues.some((issue) => issue.line === line) || (indentation && indentationSaid)) continue;
      indentationSaid ||= indentation;
      issues.push({ file, path: '', message: `invalid YAML: ${message}`, line });
    }
    return { ok: false, issues };
  }
  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch (err) {
    // an alias to no anchor, or aliases that expand without end, surface only here
    const code: ErrorCode = err instanceof ReferenceError ? 'BAD_ALIAS' : 'RESOURCE_EXHAUSTION';
    return { ok: false, issues: [{ file, path: '', message: `invalid YAML: ${YAML_ERROR_WORDS[code]}` }] };
  }
  return { ok: true, raw, lineFor: (path) => lineOf(doc, lineCounter, path) };
}

/**
 * Parses YAML text and validates it against a strict zod schema, reporting
 * every problem with its path and line. `locate` turns later cross-check
 * findings into issues pointing at the same document's lines.
 */
export function parseYamlWithSchema<S extends z.ZodType>(text: string, file: string, schema: S): SchemaParse<z.infer<S>> {
  const read = readYamlDocument(text, file);
  if (!read.ok) return read;
  const parsed = validateWithSchema(read.raw ?? {}, file, schema, read.lineFor);
  if (!parsed.ok) return parsed;
  return { ok: true, data: parsed.data, locate: (issues) => locateIssues(issues, file, read.lineFor) };
}

/** Validates an already-parsed value; unknown keys are reported one by one with their full path. */
export function validateWithSchema<S extends z.ZodType>(
  raw: unknown,
  file: string,
  schema: S,
  lineFor: LineFor = () => undefined,
): { ok: true; data: z.infer<S> } | { ok: false; issues: ConfigIssue[] } {
  const parsed = schema.safeParse(raw, { error: plainWords });
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues: ConfigIssue[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        issues.push({ file, path: dottedPath(path), message: unknownKeyMessage(schema, issue.path, key), line: lineFor(path) });
      }
      continue;
    }
    issues.push({ file, path: dottedPath(issue.path), message: issue.message, line: lineFor(issue.path) });
  }
  return { ok: false, issues };
}

export function locateIssues(issues: RawIssue[], file: string, lineFor: LineFor = () => undefined): ConfigIssue[] {
  return issues.map((i) => ({
    file,
    path: dottedPath(i.path),
    message: i.message,
    line: lineFor(i.path),
    ...(i.unsetVariable === undefined ? {} : { unsetVariable: i.unsetVariable }),
  }));
}

/** `['seats', 0, 'id']` → `seats[0].id` */
export function dottedPath(path: PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

function lineOf(doc: Document, counter: LineCounter, path: PropertyKey[]): number | undefined {
  if (path.length === 0) return isNode(doc.contents) && doc.contents.range ? counter.linePos(doc.contents.range[0]).line : undefined;
  // Walk up until a node exists, so a missing key points at its parent —
  // but not at the document itself: a whole missing section has no line.
  for (let n = path.length; n >= 1; n--) {
    const node = entryAt(doc, path.slice(0, n));
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

/** The node where `path` is written: a mapping entry's key (its value may start lines later), a list's item. */
function entryAt(doc: Document, path: PropertyKey[]): unknown {
  const keys = path.map((k) => (typeof k === 'symbol' ? String(k) : k));
  const last = keys[keys.length - 1];
  const parent = keys.length === 1 ? doc.contents : doc.getIn(keys.slice(0, -1), true);
  if (isMap(parent)) return parent.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === String(last))?.key;
  if (isSeq(parent) && typeof last === 'number') return parent.items[last];
  return undefined;
}
