import type { Server, ServerResponse } from 'node:http';
import {
  defaultDecisionLogPath,
  defaultSocketPath,
  environmentWith,
  formatIssue,
  isLoopback,
  type Config,
  type Env,
} from '@routeplane/shared';
import { systemClock, type Clock } from './breaker/types.js';
import type { DaemonContext } from './context.js';
import { buildContext } from './build-context.js';
import { loadRedisStore } from './store/choose-store.js';
import { buildHttpApp } from './http/app.js';
import { startControlServer, type ControlServer } from './control/server.js';
import { createControlApi } from './control/api.js';
import { DecisionLog } from './decision-log.js';
import { BreakerTimers } from './breaker/timers.js';
import { StateFileStore } from './state-file/store.js';
import { Notifier } from './notify/notifier.js';
import type { DaemonLog } from './log.js';

export interface StartOptions {
  /** where `api_key_env` / `auth_token_env` are read (default process.env) */
  env?: Env;
  /**
   * A file of `NAME=value` lines read over `env` at start and again by every
   * reload, so a key added there reaches the daemon without a restart
   */
  envFile?: string | null;
  clock?: Clock;
  /** overrides `server.listen` (tests pass 127.0.0.1:0) */
  listen?: string;
  /** overrides `control.socket` */
  socketPath?: string;
  /** overrides `decision_log.path`; false disables */
  decisionLogPath?: string | false;
  /** the daemon's own log lines (default: none) */
  log?: DaemonLog;
  /** the config file the config came from (shown by `status`, re-read by reload) */
  configPath?: string | null;
  /** overrides `hostname:pid` (several daemons in one process share a store, as tests run them) */
  daemonId?: string;
}

export interface RunningDaemon {
  readonly url: string;
  readonly socketPath: string;
  readonly decisionLogPath: string | null;
  /** `influence.state_file` as the daemon uses it (absolute), when breakers are kept there */
  readonly stateFile: string | null;
  readonly context: DaemonContext;
  /** stop accepting, let in-flight requests finish up to `graceMs`, remove the socket */
  close(graceMs?: number): Promise<void>;
}

export async function startDaemon(config: Config, opts: StartOptions = {}): Promise<RunningDaemon> {
  const baseEnv = opts.env ?? process.env;
  const envFile = opts.envFile ?? null;
  const environment = environmentWith(baseEnv, envFile);
  if (!environment.ok) throw new Error(formatIssue(environment.issue));
  const env = environment.env;
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? (() => {});

  const listen = opts.listen ?? config.server.listen;
  // the engine wakes the timers, which read the engine: created just below it
  let timers: BreakerTimers | undefined;
  const context = buildContext(config, {
    redisStore: await loadRedisStore(config),
    env,
    clock,
    configPath: opts.configPath ?? null,
    reloadEnv: { base: baseEnv, file: envFile },
    wake: () => timers?.reschedule(),
    log,
    daemonId: opts.daemonId,
  });
  // The config loader refuses this too; checked again here because `opts.listen` and
  // hand-built configs bypass it, and an open port without a token lends every seat key to anyone.
  if (context.routing.tokens === null && !isLoopback(listen.slice(0, listen.lastIndexOf(':')))) {
    throw new Error(`server.auth_token_env: required when listen (${listen}) is not a loopback address`);
  }
  const { bus, influence, store } = context;

  const logPath = opts.decisionLogPath !== undefined ? opts.decisionLogPath : (config.decision_log.path ?? defaultDecisionLogPath(env));
  const decisionLog =
    logPath === false ? null : new DecisionLog(logPath, config.decision_log.max_mb * 1024 * 1024, bus, log, config.decision_log.keep);
  // before the store starts: a store that is away at start is news too
  const notifier = new Notifier(context, log);
  const breakerTimers = new BreakerTimers(influence, clock);
  timers = breakerTimers;
  bus.subscribe((event) => {
    if (event.type === 'breaker') breakerTimers.reschedule();
  });

  const app = buildHttpApp(context);
  const inFlight = trackInFlight(app.server);
  const sep = listen.lastIndexOf(':');
  const host = listen.slice(0, sep).replace(/^\[|\]$/g, '');
  const port = Number(listen.slice(sep + 1));
  let control: ControlServer | null = null;
  // Readiness: the control socket is bound before the HTTP port opens,
  // so whoever sees /healthz answer can talk to the socket at once; a command that arrives
  // in between is answered once the port is open (hello then carries the bound URL).
  let httpOpen!: () => void;
  const ready = new Promise<void>((resolve) => {
    httpOpen = resolve;
  });
  try {
    // the store first (a state file restored, a shared store connected or found away):
    // the first hello and snapshot already show what it holds
    await store.start();
    context.restored = store.restored;
    const socketPath = opts.socketPath ?? config.control.socket ?? defaultSocketPath(env);
    control = await startControlServer(socketPath, createControlApi(context), { ready });
    await app.listen({ host, port });
    const address = app.server.address();
    const boundPort = typeof address === 'object' && address ? address.port : port;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    context.httpUrl = `http://${urlHost}:${boundPort}`;
    httpOpen();
  } catch (err) {
    await control?.close().catch(() => {});
    await app.close().catch(() => {});
    breakerTimers.stop();
    context.recent.stop();
    notifier.close();
    // a daemon that did not start (another one holds the socket, say) must not write over that one's file
    await store.abandon();
    await decisionLog?.close();
    throw err;
  }
  breakerTimers.reschedule();
  const started = control;
  let closing: Promise<void> | null = null;

  return {
    url: context.httpUrl,
    socketPath: started.path,
    decisionLogPath: logPath === false ? null : logPath,
    // influence off at start: the file is left as it is (a reload that switches influence on loads it)
    stateFile: store instanceof StateFileStore && store.inUse ? store.path : null,
    context,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        breakerTimers.stop();
        await started.close();
        await closeHttp(app, graceMs, inFlight);
        context.recent.stop();
        context.metrics.stop();
        context.usage.stop();
        notifier.close();
        // after the drain: the state file's last save carries what in-flight requests did
        await store.close();
        await decisionLog?.close();
      })();
      return closing;
    },
  };
}

/** Stop accepting, drop idle keep-alive sockets now, give in-flight requests `graceMs`. */
async function closeHttp(app: ReturnType<typeof buildHttpApp>, graceMs: number, inFlight: InFlight): Promise<void> {
  const server = app.server;
  const done = app.close();
  server.closeIdleConnections?.();
  inFlight.closeConnectionsAsTheyFree();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      server.closeAllConnections?.();
      resolve();
    }, graceMs);
    timer.unref();
  });
  await Promise.race([done, deadline]);
  clearTimeout(timer);
}

interface InFlight {
  /** from now on, close each agent connection as soon as its response has gone out */
  closeConnectionsAsTheyFree(): void;
}

/**
 * Node closes idle keep-alive connections once, when close() starts: a connection whose
 * in-flight response ends later would sit idle (agents keep pools) until the grace runs
 * out, holding the exit. So responses are tracked, and during shutdown each one that
 * finishes (its bytes handed to the OS) frees its connection at once.
 */
function trackInFlight(server: Server): InFlight {
  const open = new Set<ServerResponse>();
  let closing = false;
  const closeIdle = (): void => server.closeIdleConnections?.();
  server.on('request', (_req, res: ServerResponse) => {
    open.add(res);
    res.once('close', () => open.delete(res));
    // a request that arrives on an already open connection during the drain is still served
    if (closing) res.once('finish', closeIdle);
  });
  return {
    closeConnectionsAsTheyFree() {
      closing = true;
      for (const res of open) res.once('finish', closeIdle);
    },
  };
}
