/**
 * A real daemon for tests: config built through `validateConfig` (so it is
 * exactly what a user's file would give), `startDaemon` on 127.0.0.1:0, a
 * socket and a decision log in a fresh temporary directory, seat keys that are
 * unique random strings (so a test can search for them anywhere), and the
 * daemon's log lines captured.
 *
 *   const up = await startFakeUpstream(respond.openaiChat());
 *   const t = await startTestDaemon({
 *     seats: [{ id: 'a', provider: 'openai', upstream: up }],
 *     routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'gpt-real' }] }],
 *   });
 *   const res = await t.post('/v1/chat/completions', { model: 'gpt', messages: [] });
 *   const decision = await t.events.nextDecision();
 *   await t.close();
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConfigInput, type SeatAuth, validateConfig } from '@routeplane/shared';
import { startDaemon, type RunningDaemon } from '../../src/start.js';
import type { DaemonContext } from '../../src/context.js';
import { EventRecorder } from './events.js';
import type { FakeUpstream } from './fake-upstream.js';

export interface TestSeat {
  id: string;
  provider: 'anthropic' | 'openai';
  /** a fake upstream, or any base_url (e.g. `${up.url}/v1`, or a closed port) */
  upstream: FakeUpstream | string;
  /** a value `{ env: NAME }` is read from `env` below */
  headers?: Record<string, string | { env: string }>;
  /** the last slice of the seat's usage window kept for foreground work */
  reserve_pct?: number;
  /** docs/seats.md; `passthrough` and `none` get no key (and no `api_key_env`) */
  auth?: SeatAuth;
  api_path?: string;
  extra_usage?: 'allow' | 'avoid';
  /** the default price of the seat's targets */
  price?: NonNullable<ConfigInput['seats']>[number]['price'];
}

/** A route as a config file writes it: `balance`, `retry`, `lane`, and chain entries' `weight` and `cost_per_mtok` included. */
export type TestRoute = NonNullable<ConfigInput['routes']>[number];

/** An agent identity; its token is set through a `token_env` the helper picks. */
export interface TestAgent {
  id: string;
  token: string;
  allow?: string[];
  deny?: string[];
  lane?: 'foreground' | 'background';
}

export interface TestDaemonOptions {
  seats: TestSeat[];
  routes: TestRoute[];
  /** top-level `aliases` */
  aliases?: Record<string, string>;
  influence?: NonNullable<ConfigInput['influence']>;
  timeouts?: NonNullable<ConfigInput['timeouts']>;
  /** `auth_token`: the daemon requires this token (set through `auth_token_env`); `agents`: `server.agents` */
  server?: { body_limit_mb?: number; auth_token?: string; agents?: TestAgent[] };
  decisionLog?: { max_mb?: number } | false;
  /** more environment for the daemon (e.g. a variable `password_env` names) */
  env?: Record<string, string>;
  /** overrides `hostname:pid` (several daemons in one process) */
  daemonId?: string;
  /** top-level `currency` and `notify` */
  currency?: string;
  notify?: ConfigInput['notify'];
}

export interface TestDaemon {
  readonly daemon: RunningDaemon;
  readonly context: DaemonContext;
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** each seat's API key, by seat id (none for a passthrough or no-key seat) */
  readonly keys: Readonly<Record<string, string>>;
  /** lines the daemon logged */
  readonly logs: string[];
  /** every event since start */
  readonly events: EventRecorder;
  readonly decisionLogPath: string | null;
  readonly tempDir: string;
  /** POSTs JSON (or a raw string/Buffer) to the daemon */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestDaemon(opts: TestDaemonOptions): Promise<TestDaemon> {
  const tempDir = await mkdtemp(join(tmpdir(), 'routeplane-test-'));
  const env: Record<string, string> = { ...opts.env };
  const keys: Record<string, string> = {};
  const seats = opts.seats.map((seat) => {
    const keyed = seat.auth === undefined || seat.auth === 'x-api-key' || seat.auth === 'bearer';
    const envName = `RP_TEST_KEY_${seat.id.replace(/[^a-z0-9]/gi, '_').toUpperCase()}`;
    if (keyed) {
      const key = `sk-test-${seat.id}-${randomUUID()}`;
      env[envName] = key;
      keys[seat.id] = key;
    }
    return {
      id: seat.id,
      provider: seat.provider,
      base_url: typeof seat.upstream === 'string' ? seat.upstream : seat.upstream.url,
      ...(keyed ? { api_key_env: envName } : {}),
      headers: seat.headers ?? {},
      ...(seat.reserve_pct === undefined ? {} : { reserve_pct: seat.reserve_pct }),
      ...(seat.auth === undefined ? {} : { auth: seat.auth }),
      ...(seat.api_path === undefined ? {} : { api_path: seat.api_path }),
      ...(seat.extra_usage === undefined ? {} : { extra_usage: seat.extra_usage }),
      ...(seat.price === undefined ? {} : { price: seat.price }),
    };
  });
  const server: Record<string, unknown> = {};
  if (opts.server?.body_limit_mb !== undefined) server.body_limit_mb = opts.server.body_limit_mb;
  if (opts.server?.auth_token !== undefined) {
    env.RP_TEST_AUTH_TOKEN = opts.server.auth_token;
    server.auth_token_env = 'RP_TEST_AUTH_TOKEN';
  }
  if (opts.server?.agents !== undefined) {
    server.agents = opts.server.agents.map(({ token, ...agent }) => {
      const tokenEnv = `RP_TEST_AGENT_${agent.id.replace(/[^a-z0-9]/gi, '_').toUpperCase()}`;
      env[tokenEnv] = token;
      return { ...agent, token_env: tokenEnv };
    });
  }
  const raw = {
    server,
    seats,
    routes: opts.routes,
    ...(opts.aliases === undefined ? {} : { aliases: opts.aliases }),
    influence: opts.influence ?? {},
    timeouts: opts.timeouts ?? {},
    decision_log: opts.decisionLog === false ? { path: false } : { max_mb: opts.decisionLog?.max_mb ?? 64 },
    ...(opts.currency === undefined ? {} : { currency: opts.currency }),
    ...(opts.notify === undefined ? {} : { notify: opts.notify }),
  };
  const result = validateConfig(raw, 'test-config', env);
  if (!result.ok) throw new Error(`test config invalid: ${result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);

  const logs: string[] = [];
  const decisionLogPath = opts.decisionLog === false ? false : join(tempDir, 'logs', 'decisions.ndjson');
  const daemon = await startDaemon(result.config, {
    env,
    listen: '127.0.0.1:0',
    socketPath: join(tempDir, 'control.sock'),
    decisionLogPath,
    log: (line) => logs.push(line),
    ...(opts.daemonId === undefined ? {} : { daemonId: opts.daemonId }),
  });
  const events = new EventRecorder(daemon.context.bus);
  let closed = false;

  return {
    daemon,
    context: daemon.context,
    url: daemon.url,
    keys,
    logs,
    events,
    decisionLogPath: decisionLogPath === false ? null : decisionLogPath,
    tempDir,
    post(path, body, headers = {}) {
      const payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      return fetch(daemon.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: payload });
    },
    async close() {
      if (closed) return;
      closed = true;
      events.stop();
      await daemon.close(2_000);
      await rm(tempDir, { recursive: true, force: true });
    },
  };
}
