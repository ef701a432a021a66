import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import type { z } from 'zod';
import { configSchema, type Config } from './schema.js';

/** One problem in a config file, printed as `FILE: path.to.key: message`. */
export interface ConfigIssue {
  file: string;
  path: string;
  message: string;
  line?: number;
}

export type ConfigResult =
  | { ok: true; file: string; config: Config }
  | { ok: false; file: string; issues: ConfigIssue[] };

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.path === '' ? '' : `${issue.path}: `;
  const line = issue.line === undefined ? '' : ` (line ${issue.line})`;
  return `${issue.file}: ${where}${issue.message}${line}`;
}

export interface Env {
  [name: string]: string | undefined;
}

/** Where the config is looked for, in order (spec "Configuration"). */
export function configCandidates(explicit: string | undefined, env: Env = process.env, cwd = process.cwd()): string[] {
  if (explicit) return [resolve(cwd, explicit)];
  if (env.ROUTEPLANE_CONFIG) return [resolve(cwd, env.ROUTEPLANE_CONFIG)];
  const xdg = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return [resolve(cwd, 'routeplane.yaml'), join(xdg, 'routeplane', 'routeplane.yaml')];
}

/** Finds and validates the config; every problem is reported, none thrown. */
export function loadConfig(explicit?: string, env: Env = process.env, cwd = process.cwd()): ConfigResult {
  const candidates = configCandidates(explicit, env, cwd);
  for (const file of candidates) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && candidates.length > 1) continue;
      const why = code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? String(err)})`;
      return { ok: false, file, issues: [{ file, path: '', message: why }] };
    }
    return parseConfig(text, file, env);
  }
  const file = candidates[0] ?? 'routeplane.yaml';
  return {
    ok: false,
    file,
    issues: [{ file, path: '', message: `no config found (looked in ${candidates.join(', ')})` }],
  };
}

/** Parses YAML text and validates it; `file` only names where it came from. */
export function parseConfig(text: string, file: string, env: Env = process.env): ConfigResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      file,
      issues: doc.errors.map((e) => ({
        file,
        path: '',
        message: `invalid YAML: ${(e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`,
        line: e.linePos?.[0]?.line,
      })),
    };
  }
  const raw: unknown = doc.toJS() ?? {};
  return validateConfig(raw, file, env, (path) => lineOf(doc, lineCounter, path));
}

/** Validates an already-parsed document: schema, then cross-checks, then the environment. */
export function validateConfig(
  raw: unknown,
  file: string,
  env: Env = process.env,
  lineFor: (path: PropertyKey[]) => number | undefined = () => undefined,
): ConfigResult {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, file, issues: zodIssues(parsed.error, file, lineFor) };
  }
  const config = parsed.data;
  const issues = [...crossCheck(config), ...envCheck(config, env)].map((i) => ({
    file,
    path: dotted(i.path),
    message: i.message,
    line: lineFor(i.path),
  }));
  return issues.length > 0 ? { ok: false, file, issues } : { ok: true, file, config };
}

interface RawIssue {
  path: PropertyKey[];
  message: string;
}

function zodIssues(error: z.ZodError, file: string, lineFor: (path: PropertyKey[]) => number | undefined): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        out.push({ file, path: dotted(path), message: 'unknown key', line: lineFor(path) });
      }
      continue;
    }
    out.push({ file, path: dotted(issue.path), message: issue.message, line: lineFor(issue.path) });
  }
  return out;
}

function dotted(path: PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

function crossCheck(config: Config): RawIssue[] {
  const issues: RawIssue[] = [];
  const seats = new Set<string>();
  config.seats.forEach((seat, i) => {
    if (seats.has(seat.id)) issues.push({ path: ['seats', i, 'id'], message: `duplicate seat id "${seat.id}"` });
    seats.add(seat.id);
  });
  const routes = new Set<string>();
  config.routes.forEach((route, i) => {
    if (routes.has(route.model)) issues.push({ path: ['routes', i, 'model'], message: `duplicate route "${route.model}"` });
    routes.add(route.model);
    route.chain.forEach((t, j) => {
      if (!seats.has(t.seat)) {
        issues.push({ path: ['routes', i, 'chain', j, 'seat'], message: `unknown seat "${t.seat}" (declared: ${[...seats].join(', ')})` });
      }
    });
  });
  if (config.influence.max_cooldown_secs < 1) {
    issues.push({ path: ['influence', 'max_cooldown_secs'], message: 'must be at least 1 (the rate-limit floor)' });
  }
  const host = config.server.listen.slice(0, config.server.listen.lastIndexOf(':'));
  if (!isLoopback(host) && config.server.auth_token_env === null) {
    issues.push({
      path: ['server', 'auth_token_env'],
      message: `required when listen (${config.server.listen}) is not a loopback address`,
    });
  }
  return issues;
}

function envCheck(config: Config, env: Env): RawIssue[] {
  const issues: RawIssue[] = [];
  config.seats.forEach((seat, i) => {
    if (!env[seat.api_key_env]) {
      issues.push({ path: ['seats', i, 'api_key_env'], message: `environment variable ${seat.api_key_env} is not set` });
    }
  });
  const tokenEnv = config.server.auth_token_env;
  if (tokenEnv !== null && !env[tokenEnv]) {
    issues.push({ path: ['server', 'auth_token_env'], message: `environment variable ${tokenEnv} is not set` });
  }
  return issues;
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function lineOf(doc: Document, counter: LineCounter, path: PropertyKey[]): number | undefined {
  // Walk down as far as the document goes, so a missing key points at its parent.
  for (let n = path.length; n >= 0; n--) {
    const keys = path.slice(0, n).map((k) => (typeof k === 'symbol' ? String(k) : k));
    const node = n === 0 ? doc.contents : doc.getIn(keys, true);
    if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
    // For an unknown key the value node exists but we prefer the key itself; good enough.
  }
  return undefined;
}
