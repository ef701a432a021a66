import { readFileSync } from 'node:fs';
import type { Env } from './env.js';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ConfigView } from './config-view.js';
import { crossCheck } from './cross-checks.js';
import { policyChecks } from './policy-checks.js';
import { seatChecks } from './seat-checks.js';
import { envCheck } from './env-checks.js';
import { resolveConfigPaths } from './relative-paths.js';
import { salvage } from './schema-walk.js';
import { configSchema, type Config } from './schema.js';
import { sharedChecks, sharedEnvChecks } from './shared-checks.js';
import { notifyWarnings } from './notify-checks.js';
import { configWarnings } from './warnings.js';
import { locateIssues, readYamlDocument, validateWithSchema, type ConfigIssue, type LineFor } from './yaml-document.js';

export { isLoopback } from './cross-checks.js';

/** Every problem and every warning; `warnings` never make a config invalid. */
export type ConfigResult =
  | { ok: true; file: string; config: Config; warnings: ConfigIssue[] }
  | { ok: false; file: string; issues: ConfigIssue[]; warnings: ConfigIssue[] };

export type { Env } from './env.js';

/** The command that writes a starter config, named wherever a config is missing. */
export const CONFIG_INIT_COMMAND = 'routeplane config init';

/** Where the config is looked for, in order. */
export function configCandidates(explicit: string | undefined, env: Env = process.env, cwd = process.cwd()): string[] {
  if (explicit) return [resolve(cwd, explicit)];
  if (env.ROUTEPLANE_CONFIG) return [resolve(cwd, env.ROUTEPLANE_CONFIG)];
  return [resolve(cwd, 'routeplane.yaml'), userConfigPath(env)];
}

/** `$XDG_CONFIG_HOME/routeplane/routeplane.yaml`, the config every directory finds. */
export function userConfigPath(env: Env = process.env): string {
  const xdg = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(xdg, 'routeplane', 'routeplane.yaml');
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
      const why =
        code === 'ENOENT'
          ? `file not found (\`${CONFIG_INIT_COMMAND} --path ${file}\` writes one)`
          : `cannot read (${code ?? String(err)})`;
      return { kind: 'unreadable', file, issue: { file, path: '', message: why } };
    }
  }
  return { kind: 'none', candidates };
}

/** The one line for "no config anywhere": every place looked at, and how to write one. */
export function noConfigIssue(candidates: string[]): ConfigIssue {
  return {
    file: '',
    path: '',
    message: `no config found (looked for ${candidates.join(' and ')}); write one with \`${CONFIG_INIT_COMMAND}\``,
  };
}

/** Finds and validates the config; every problem is reported, none thrown. */
export function loadConfig(explicit?: string, env: Env = process.env, cwd = process.cwd()): ConfigResult {
  const read = readConfigText(explicit, env, cwd);
  switch (read.kind) {
    case 'found':
      return parseConfig(read.text, read.file, env);
    case 'unreadable':
      return { ok: false, file: read.file, issues: [read.issue], warnings: [] };
    case 'none':
      return { ok: false, file: '', issues: [noConfigIssue(read.candidates)], warnings: [] };
  }
}

/**
 * Parses YAML text and validates it. `file` names where it came from; paths
 * in the config that are relative are relative to its directory.
 */
export function parseConfig(text: string, file: string, env: Env = process.env): ConfigResult {
  const read = readYamlDocument(text, file);
  if (!read.ok) return { ok: false, file, issues: read.issues, warnings: [] };
  return checkDocument(read.raw, file, env, read.lineFor);
}

/** Validates an already-parsed document: schema, cross-checks and the environment, all in one pass. */
export function validateConfig(raw: unknown, file: string, env: Env = process.env): ConfigResult {
  return checkDocument(raw, file, env, () => undefined);
}

function checkDocument(raw: unknown, file: string, env: Env, lineFor: LineFor): ConfigResult {
  if (raw === null || raw === undefined) {
    return { ok: false, file, issues: [emptyFileIssue(file)], warnings: [] };
  }
  const strict = validateWithSchema(raw, file, configSchema, lineFor);
  // An invalid file still gets its cross-checks, on every part that did pass,
  // so one run of `config check` shows every problem.
  const view: ConfigView = strict.ok ? strict.data : ((salvage(configSchema, raw) ?? {}) as ConfigView);
  // the policy and shared-store checks read defaults the schema fills in, so they join once the schema passed
  const whole = strict.ok
    ? [...seatChecks(strict.data), ...policyChecks(strict.data), ...sharedChecks(strict.data), ...sharedEnvChecks(strict.data, env)]
    : [];
  const found = locateIssues([...crossCheck(view), ...whole, ...envCheck(view, env)], file, lineFor);
  const issues = inDocumentOrder([...(strict.ok ? [] : strict.issues), ...found]);
  const warnings = inDocumentOrder(locateIssues([...configWarnings(view), ...notifyWarnings(view, env)], file, lineFor));
  if (!strict.ok || issues.length > 0) return { ok: false, file, issues, warnings };
  return { ok: true, file, config: resolveConfigPaths(strict.data, dirname(resolve(file))), warnings };
}

function emptyFileIssue(file: string): ConfigIssue {
  return {
    file,
    path: '',
    message: `the file is empty: a config needs at least one seat (seats:, each with id, provider, base_url and api_key_env) and one route to it (routes:, each with model and chain); \`${CONFIG_INIT_COMMAND}\` writes a commented starter`,
  };
}

function inDocumentOrder(issues: ConfigIssue[]): ConfigIssue[] {
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => (a.issue.line ?? Number.MAX_SAFE_INTEGER) - (b.issue.line ?? Number.MAX_SAFE_INTEGER) || a.i - b.i)
    .map(({ issue }) => issue);
}
