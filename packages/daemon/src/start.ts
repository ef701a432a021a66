import type { Server, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { defaultDecisionLogPath, defaultSocketPath, isLoopback, type Config, type Env } from '@routeplane/shared';
import { EventBus } from './events/bus.js';
import { RecentDecisions } from './events/recent-decisions.js';
import { createInfluence } from './breaker/engine.js';
import { MemoryStore } from './breaker/store.js';
import { systemClock, type Clock } from './breaker/types.js';
import type { DaemonContext, ResolvedSeat } from './context.js';
import { buildHttpApp } from './http/app.js';
import { startControlServer, type ControlServer } from './control/server.js';
import { createControlApi } from './control/api.js';
import { DecisionLog } from './decision-log.js';
import { BreakerTimers } from './breaker/timers.js';

export interface StartOptions {
  /** where `api_key_env` / `auth_token_env` are read (default process.env) */
  env?: Env;
  clock?: Clock;
  /** overrides `server.listen` (tests pass 127.0.0.1:0) */
  listen?: string;
  /** overrides `control.socket` */
  socketPath?: string;
  /** overrides `decision_log.path`; false disables */
  decisionLogPath?: string | false;
  /** the daemon's own log lines (default: none) */
  log?: (line: string) => void;
  /** the config file the config came from (shown by `status`, re-read by reload) */
  configPath?: string | null;
}

export interface RunningDaemon {
  readonly url: string;
  readonly socketPath: string;
  readonly decisionLogPath: string | null;
  readonly context: DaemonContext;
  /** stop accepting, let in-flight requests finish up to `graceMs`, remove the socket */
  close(graceMs?: number): Promise<void>;
}

export async function startDaemon(config: Config, opts: StartOptions = {}): Promise<RunningDaemon> {
  const env = opts.env ?? process.env;
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? (() => {});

  const seats = new Map<string, ResolvedSeat>();
  const secrets: string[] = [];
  for (const seat of config.seats) {
    const apiKey = env[seat.api_key_env];
    if (!apiKey) throw new Error(`environment variable ${seat.api_key_env} is not set (seat ${seat.id})`);
    seats.set(seat.id, { ...seat, apiKey });
    secrets.push(apiKey);
  }
  const tokenEnv = config.server.auth_token_env;
  const authToken = tokenEnv === null ? null : (env[tokenEnv] ?? null);
  if (tokenEnv !== null && !authToken) throw new Error(`environment variable ${tokenEnv} is not set (server.auth_token_env)`);
  if (authToken) secrets.push(authToken);
  const listen = opts.listen ?? config.server.listen;
  // The config loader refuses this too; checked again here because `opts.listen` and
  // hand-built configs bypass it, and an open port without a token lends every seat key to anyone.
  if (authToken === null && !isLoopback(listen.slice(0, listen.lastIndexOf(':')))) {
    throw new Error(`server.auth_token_env: required when listen (${listen}) is not a loopback address`);
  }

  const bus = new EventBus(() => clock.now());
  // the engine wakes the timers, which read the engine: created just below it
  let timers: BreakerTimers;
  const daemonId = `${hostname().split('.')[0]}:${process.pid}`;
  const store = new MemoryStore(clock.now());
  const influence = createInfluence(config.influence, config.seats, config.routes, {
    clock,
    onChange: (change) => bus.emit(change),
    origin: daemonId,
    store,
    wake: () => timers.reschedule(),
  });
  const context: DaemonContext = {
    config,
    seats,
    routes: new Map(config.routes.map((r) => [r.model, r])),
    authToken,
    bus,
    influence,
    counters: { requests: 0, failovers: 0, fail_open: 0 },
    clock,
    startedAt: clock.now(),
    httpUrl: '',
    secrets,
    daemonId,
    store,
    configPath: opts.configPath ?? null,
    restored: 0,
    usage: new Map(),
    recent: new RecentDecisions(bus),
    reload: () => ({ ok: false, error: { code: 'bad_config', message: 'reload is not available in this daemon' } }),
  };

  const logPath = opts.decisionLogPath !== undefined ? opts.decisionLogPath : (config.decision_log.path ?? defaultDecisionLogPath(env));
  const decisionLog = logPath === false ? null : new DecisionLog(logPath, config.decision_log.max_mb * 1024 * 1024, bus, log);
  timers = new BreakerTimers(influence, clock);
  bus.subscribe((event) => {
    if (event.type === 'breaker') timers.reschedule();
  });

  const app = buildHttpApp(context);
  const inFlight = trackInFlight(app.server);
  const sep = listen.lastIndexOf(':');
  const host = listen.slice(0, sep).replace(/^\[|\]$/g, '');
  const port = Number(listen.slice(sep + 1));
  let control: ControlServer | null = null;
  // Readiness (spec/protocol-v2.md): the control socket is bound before the HTTP port opens,
  // so whoever sees /healthz answer can talk to the socket at once; a command that arrives
  // in between is answered once the port is open (hello then carries the bound URL).
  let httpOpen!: () => void;
  const ready = new Promise<void>((resolve) => {
    httpOpen = resolve;
  });
  try {
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
    timers.stop();
    context.recent.stop();
    await decisionLog?.close();
    throw err;
  }
  timers.reschedule();
  const started = control;
  let closing: Promise<void> | null = null;

  return {
    url: context.httpUrl,
    socketPath: started.path,
    decisionLogPath: logPath === false ? null : logPath,
    context,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        timers.stop();
        await started.close();
        await closeHttp(app, graceMs, inFlight);
        context.recent.stop();
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
