/**
 * The seat tests' fixtures: fake upstreams and one daemon per test, closed
 * after it, and the route most of them use — `sonnet` over the agent's own
 * Claude login first, then an API-key seat.
 */
import { afterEach } from 'vitest';
import { respond, startFakeUpstream, type Behaviour, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon, type TestDaemonOptions } from '../helpers/test-daemon.js';

export interface SeatFixtures {
  /** a fake upstream, closed after the test */
  upstream(behaviour?: Behaviour): Promise<FakeUpstream>;
  /** the test's daemon, closed after it */
  daemon(opts: TestDaemonOptions): Promise<TestDaemon>;
}

/** Registers the cleanup; call once at the top of a test file. */
export function seatFixtures(): SeatFixtures {
  let upstreams: FakeUpstream[] = [];
  let daemons: TestDaemon[] = [];
  afterEach(async () => {
    await Promise.all(daemons.map((d) => d.close()));
    await Promise.all(upstreams.map((u) => u.close()));
    daemons = [];
    upstreams = [];
  });
  return {
    async upstream(behaviour = respond.anthropicMessage()) {
      const u = await startFakeUpstream(behaviour);
      upstreams.push(u);
      return u;
    },
    async daemon(opts) {
      const d = await startTestDaemon(opts);
      daemons.push(d);
      return d;
    },
  };
}

export interface LoginThenKey {
  t: TestDaemon;
  /** the upstream of seat `claude-login` (`auth: passthrough`) */
  login: FakeUpstream;
  /** the upstream of seat `api` (an API key) */
  key: FakeUpstream;
}

/**
 * Route `sonnet`: `claude-login/claude-sonnet-5` (the agent's own login),
 * then `api/claude-sonnet-5` (a key); route `login-only`: the login alone.
 */
export async function loginThenKey(
  fx: SeatFixtures,
  opts: { login?: Behaviour; extraUsage?: 'allow' | 'avoid'; server?: TestDaemonOptions['server'] } = {},
): Promise<LoginThenKey> {
  const login = await fx.upstream(opts.login);
  const key = await fx.upstream(respond.anthropicMessage('from the key'));
  const t = await fx.daemon({
    seats: [
      { id: 'claude-login', provider: 'anthropic', upstream: login, auth: 'passthrough', extra_usage: opts.extraUsage ?? 'allow' },
      { id: 'api', provider: 'anthropic', upstream: key },
    ],
    routes: [
      {
        model: 'sonnet',
        chain: [
          { seat: 'claude-login', model: 'claude-sonnet-5' },
          { seat: 'api', model: 'claude-sonnet-5' },
        ],
      },
      { model: 'login-only', chain: [{ seat: 'claude-login', model: 'claude-sonnet-5' }] },
    ],
    influence: { enabled: true, cooldown_secs: 60 },
    ...(opts.server === undefined ? {} : { server: opts.server }),
  });
  return { t, login, key };
}
