import { type Config, type Env, environmentWith, formatIssue, loadConfig, unsetVariableHint } from '@routeplane/shared';
import type { ReloadableInfluence } from './breaker/reloadable.js';
import { agentTokenCheck, resolveSeats } from './credentials.js';
import type { DaemonContext, ReloadOutcome } from './context.js';
import type { DaemonLog } from './log.js';
import { buildRouting } from './proxy/routing.js';

/** The variables a reload reads: the process's environment (fixed at start) and, read again, the env file. */
export interface ReloadEnv {
  base: Env;
  file: string | null;
}

/**
 * Live reload: SIGHUP, the control `reload` command and
 * `routeplane reload` re-read the config file the daemon started with. A
 * valid config takes effect for requests that start after it (in-flight
 * ones finish on their chain); an invalid one is refused whole and the
 * daemon keeps running on the old one. The listen address, the control
 * socket, the decision log path and where breakers are kept (the state
 * file, the shared store) can't change without a restart; nor can influence
 * be switched on or off while a shared store is set. (A state file follows
 * the switch: the store is handed each new engine, see ReloadableInfluence.)
 * The variables the config names are read again from the env file, when
 * the daemon has one; the rest of its environment is what it started with.
 */
export function reloadConfig(ctx: DaemonContext, influence: ReloadableInfluence, source: ReloadEnv, log: DaemonLog): ReloadOutcome {
  const refuse = (errors: string[]): ReloadOutcome => {
    for (const line of errors) log(`reload refused: ${line}`, 'error');
    ctx.bus.emit({ type: 'reload', ok: false, errors });
    return { ok: false, error: { code: 'bad_config', message: errors.join('\n') } };
  };
  if (ctx.configPath === null) return refuse(['this daemon was not started from a config file: nothing to re-read']);
  const environment = environmentWith(source.base, source.file);
  if (!environment.ok) return refuse([formatIssue(environment.issue)]);
  const env = environment.env;
  const loaded = loadConfig(ctx.configPath, env);
  if (!loaded.ok) {
    const lines = loaded.issues.map(formatIssue);
    if (loaded.issues.some((issue) => issue.unsetVariable !== undefined)) lines.push(unsetVariableHint(source.file));
    return refuse(lines);
  }
  const next = loaded.config;
  const fixed = fixedKeyChanges(ctx.config, next).map((key) => `${loaded.file}: ${key}: can't change without a restart`);
  if (fixed.length > 0) return refuse(fixed);

  let seats: ReturnType<typeof resolveSeats>;
  let tokens: ReturnType<typeof agentTokenCheck>;
  try {
    seats = resolveSeats(next, env);
    tokens = agentTokenCheck(next, env);
  } catch (err) {
    return refuse([`${loaded.file}: ${(err as Error).message}`]);
  }
  const changes = describeChanges(ctx.config, next);
  // Everything is built; now swap, all at once.
  influence.reconfigure(next.influence, next.seats, next.routes);
  ctx.config = next;
  ctx.seats = seats.seats;
  ctx.secrets = [...new Set([...ctx.secrets, ...seats.secrets, ...tokens.secrets])];
  ctx.routing = buildRouting(next, seats.seats, tokens.check);
  log(`reloaded ${loaded.file}${changes.length > 0 ? `: ${changes.join('; ')}` : ' (no changes)'}`, 'info');
  ctx.bus.emit({ type: 'reload', ok: true, errors: [] });
  return { ok: true, result: { changes } };
}

/** The keys a running daemon can't change: it listens, binds and writes there already. */
function fixedKeyChanges(before: Config, after: Config): string[] {
  const changed: string[] = [];
  if (before.server.listen !== after.server.listen) changed.push('server.listen');
  if (before.control.socket !== after.control.socket) changed.push('control.socket');
  if (before.decision_log.path !== after.decision_log.path) changed.push('decision_log.path');
  // the breaker store is opened once, at start: a file it saves to, a Redis it shares through
  if (before.influence.state_file !== after.influence.state_file) changed.push('influence.state_file');
  if (JSON.stringify(before.influence.shared) !== JSON.stringify(after.influence.shared)) changed.push('influence.shared');
  // a shared store is joined at start with influence on; switching off would also write every breaker's end to the other daemons
  else if (after.influence.shared !== null && before.influence.enabled !== after.influence.enabled)
    changed.push('influence.enabled (while influence.shared is set)');
  return changed;
}

/** What a reload changed, in words (routes and seats added, removed, changed; other sections changed). */
function describeChanges(before: Config, after: Config): string[] {
  const out: string[] = [];
  const diff = (what: string, a: Map<string, string>, b: Map<string, string>) => {
    const added = [...b.keys()].filter((k) => !a.has(k));
    const removed = [...a.keys()].filter((k) => !b.has(k));
    const changed = [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k));
    const parts = [...added.map((k) => `+${k}`), ...removed.map((k) => `-${k}`), ...changed.map((k) => `~${k}`)];
    if (parts.length > 0) out.push(`${what} ${parts.join(' ')}`);
  };
  diff('seats', new Map(before.seats.map((s) => [s.id, JSON.stringify(s)])), new Map(after.seats.map((s) => [s.id, JSON.stringify(s)])));
  diff(
    'routes',
    new Map(before.routes.map((r) => [r.model, JSON.stringify(r)])),
    new Map(after.routes.map((r) => [r.model, JSON.stringify(r)])),
  );
  for (const section of ['aliases', 'influence', 'timeouts', 'notify', 'currency'] as const) {
    if (JSON.stringify(before[section]) !== JSON.stringify(after[section])) out.push(`${section} changed`);
  }
  if (JSON.stringify(before.server.agents) !== JSON.stringify(after.server.agents)) out.push('agents changed');
  return out;
}
