import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import type { z } from 'zod';

/** One problem in a YAML file, printed as `FILE: path.to.key: message (line N)`. */
export interface ConfigIssue {
  file: string;
  path: string;
  message: string;
  line?: number;
}

/** A problem found after the schema: a path into the document and what is wrong there. */
export interface RawIssue {
  path: PropertyKey[];
  message: string;
}

export type LineFor = (path: PropertyKey[]) => number | undefined;

export type SchemaParse<T> = { ok: true; data: T; locate: (issues: RawIssue[]) => ConfigIssue[] } | { ok: false; issues: ConfigIssue[] };

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.path === '' ? '' : `${issue.path}: `;
  const line = issue.line === undefined ? '' : ` (line ${issue.line})`;
  return `${issue.file}: ${where}${issue.message}${line}`;
}

/**
 * Parses YAML text and validates it against a strict zod schema, reporting
 * every problem with its path and line. `locate` turns later cross-check
 * findings into issues pointing at the same document's lines.
 */
export function parseYamlWithSchema<S extends z.ZodType>(text: string, file: string, schema: S): SchemaParse<z.infer<S>> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: doc.errors.map((e) => ({
        file,
        path: '',
        message: `invalid YAML: ${(e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`,
        line: e.linePos?.[0]?.line,
      })),
    };
  }
  const lineFor: LineFor = (path) => lineOf(doc, lineCounter, path);
  const parsed = validateWithSchema(doc.toJS() ?? {}, file, schema, lineFor);
  if (!parsed.ok) return parsed;
  return { ok: true, data: parsed.data, locate: (issues) => locateIssues(issues, file, lineFor) };
}

/** Validates an already-parsed value; unknown keys are reported one by one with their full path. */
export function validateWithSchema<S extends z.ZodType>(
  raw: unknown,
  file: string,
  schema: S,
  lineFor: LineFor = () => undefined,
): { ok: true; data: z.infer<S> } | { ok: false; issues: ConfigIssue[] } {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issues: ConfigIssue[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        issues.push({ file, path: dottedPath(path), message: 'unknown key', line: lineFor(path) });
      }
      continue;
    }
    issues.push({ file, path: dottedPath(issue.path), message: issue.message, line: lineFor(issue.path) });
  }
  return { ok: false, issues };
}

export function locateIssues(issues: RawIssue[], file: string, lineFor: LineFor = () => undefined): ConfigIssue[] {
  return issues.map((i) => ({ file, path: dottedPath(i.path), message: i.message, line: lineFor(i.path) }));
}

/** `['seats', 0, 'id']` → `seats[0].id` */
export function dottedPath(path: PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

function lineOf(doc: Document, counter: LineCounter, path: PropertyKey[]): number | undefined {
  // Walk up until a node exists, so a missing key points at its parent.
  for (let n = path.length; n >= 0; n--) {
    const keys = path.slice(0, n).map((k) => (typeof k === 'symbol' ? String(k) : k));
    const node = n === 0 ? doc.contents : doc.getIn(keys, true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}
