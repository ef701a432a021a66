import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { policyChecks, policyEnvChecks } from './policy-checks.js';
import { configSchema, type Config } from './schema.js';
import { sharedChecks, sharedEnvChecks } from './shared-checks.js';
import { locateIssues, parseYamlWithSchema, validateWithSchema, type ConfigIssue, type RawIssue } from './yaml-document.js';

export type ConfigResult = { ok: true; file: string; config: Config } | { ok: false; file: string; issues: ConfigIssue[] };

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

export type ConfigText =
  | { kind: 'found'; file: string; text: string }
  /** discovery found nothing (an explicit path that is missing is an `unreadable`) */
  | { kind: 'none'; candidates: string[] }
  | { kind: 'unreadable'; file: string; issue: ConfigIssue };

/** The first config file discovery finds, read whole; shared by the daemon and the clients. */
export function readConfigText(explicit?: string, env: Env = process.env, cwd = process.cwd()): ConfigText {
  const candidates = configCandidates(explicit, env, cwd);
  for (const file of candidates) {
    try {
      return { kind: 'found', file, text: readFileSync(file, 'utf8') };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // several candidates means discovery: a missing one is just not there
      if (code === 'ENOENT' && candidates.length > 1) continue;
      const why = code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? String(err)})`;
      return { kind: 'unreadable', file, issue: { file, path: '', message: why } };
    }
  }
  return { kind: 'none', candidates };
}

/** Finds and validates the config; every problem is reported, none thrown. */
export function loadConfig(explicit?: string, env: Env = process.env, cwd = process.cwd()): ConfigResult {
  const read = readConfigText(explicit, env, cwd);
  switch (read.kind) {
    case 'found':
      return parseConfig(read.text, read.file, env);
    case 'unreadable':
      return { ok: false, file: read.file, issues: [read.issue] };
    case 'none': {
      const file = read.candidates[0] ?? 'routeplane.yaml';
      const message = `no config found (looked in ${read.candidates.join(', ')})`;
      return { ok: false, file, issues: [{ file, path: '', message }] };
    }
  }
}

/** Parses YAML text and validates it; `file` only names where it came from. */
export function parseConfig(text: string, file: string, env: Env = process.env): ConfigResult {
  const parsed = parseYamlWithSchema(text, file, configSchema);
  if (!parsed.ok) return { ok: false, file, issues: parsed.issues };
  return checkConfig(parsed.data, file, env, parsed.locate);
}

/** Validates an already-parsed document: schema, then cross-checks, then the environment. */
export function validateConfig(raw: unknown, file: string, env: Env = process.env): ConfigResult {
  const parsed = validateWithSchema(raw, file, configSchema);
  if (!parsed.ok) return { ok: false, file, issues: parsed.issues };
  return checkConfig(parsed.data, file, env, (issues) => locateIssues(issues, file));
}

function checkConfig(config: Config, file: string, env: Env, locate: (issues: RawIssue[]) => ConfigIssue[]): ConfigResult {
  const issues = locate([...crossCheck(config), ...envCheck(config, env)]);
  return issues.length > 0 ? { ok: false, file, issues } : { ok: true, file, config };
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
  issues.push(...policyChecks(config));
  issues.push(...sharedChecks(config));
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
  issues.push(...policyEnvChecks(config, env));
  issues.push(...sharedEnvChecks(config, env));
  return issues;
}

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
