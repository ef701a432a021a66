import { readFileSync } from 'node:fs';
import type { DecisionEvent } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { message, startDaemonWithUpstreams, type TrippedDaemon } from '../../../daemon/test/control/tripped-daemon.js';
import { isolatedEnv, requireBuiltCli, runCli, spawnCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';
import { sessionTag } from '../../../daemon/test/policy-http/support.js';
import { writeClientConfig } from './client-config.js';

beforeAll(requireBuiltCli);

/**
 * Which session a line is, and only the lines asked for: `routeplane logs`
 * ends each decision with its client and the first 8 hex of its session,
 * and filters by seat, route, session, agent and status on the file and on
 * `-f` alike. Influence is off, so every request goes the same way: sonnet
 * fails over from max-a (402) to team, haiku from team (500) to rl (429).
 */
let d: TrippedDaemon;
const home = tempHome();
let config: string;
const CLAUDE = 'claude-cli/2.1.197 (external, cli)';
const CODEX = 'codex_exec/0.169.0 (Ubuntu 24.4.0; x86_64) xterm';
const ONE = sessionTag('session-one');
const TWO = sessionTag('session-two');

async function ask(route: string, session: string, userAgent: string): Promise<DecisionEvent> {
  const res = await d.t.post('/v1/messages', message(route), { 'x-routeplane-session': session, 'user-agent': userAgent });
  await res.arrayBuffer();
  return d.t.events.nextDecision();
}

beforeAll(async () => {
  d = await startDaemonWithUpstreams(false);
  await ask('sonnet', 'session-one', CLAUDE);
  await ask('sonnet', 'session-two', CODEX);
  await ask('haiku', 'session-one', CLAUDE);
  // the log is written a few milliseconds after the decisions
  await vi.waitFor(
    () => {
      if (readFileSync(d.t.decisionLogPath!, 'utf8').trim().split('\n').length < 3) throw new Error('decisions not written yet');
    },
    { timeout: 5_000, interval: 20 },
  );
  config = writeClientConfig(home.dir, { socket: d.t.daemon.socketPath, decisionLog: d.t.decisionLogPath });
});

afterAll(async () => {
  await d.close();
  home.remove();
});

const logs = async (...args: string[]) => {
  const result = await runCli(['logs', '--config', config, ...args], isolatedEnv(home.dir), home.dir);
  expect(result.stderr).toBe('');
  return result.stdout
    .trimEnd()
    .split('\n')
    .filter((l) => l !== '');
};

describe.concurrent('routeplane logs: sessions and filters', () => {
  it('each line ends with its client and session: · claude-cli/2.1.197 3f9a2c1b', async () => {
    expect(await logs()).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\d\\d:\\d\\d:\\d\\d sonnet +200 +\\d+ms max-a/sonnet-x 402 → team/sonnet-x ok · claude-cli/2\\.1\\.197 ${ONE.slice(0, 8)}$`,
        ),
      ),
      expect.stringMatching(new RegExp(` sonnet +200 .* ok · codex_exec/0\\.169\\.0 ${TWO.slice(0, 8)}$`)),
      expect.stringMatching(
        new RegExp(` haiku +429 +\\d+ms team/haiku-x 500 → rl/haiku-x 429 · claude-cli/2\\.1\\.197 ${ONE.slice(0, 8)}$`),
      ),
    ]);
  });

  it.each([
    [
      ['--session', ONE.slice(0, 4)],
      ['sonnet', 'haiku'],
    ],
    [['--session', TWO.toUpperCase()], ['sonnet']],
    [['--route', 'haiku'], ['haiku']],
    [['--status', '4xx'], ['haiku']],
    [
      ['--status', '200'],
      ['sonnet', 'sonnet'],
    ],
    [['--seat', 'rl'], ['haiku']],
    [
      ['--seat', 'max-a'],
      ['sonnet', 'sonnet'],
    ],
    [['--seat', 'team', '--route', 'sonnet', '--session', ONE.slice(0, 8)], ['sonnet']],
    [['--agent', 'ci'], []],
  ])('%j on the file', async (args, routes) => {
    const lines = await logs(...args);
    expect(lines.map((l) => l.split(/ +/)[1])).toEqual(routes);
  });

  it('-n counts the lines that match, reading back as far as it must', async () => {
    const lines = await logs('-n', '1', '--route', 'sonnet');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(TWO.slice(0, 8));
  });

  it('--status that is no status is a usage error', async () => {
    const result = await runCli(['logs', '--config', config, '--status', 'bad'], isolatedEnv(home.dir), home.dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--status.*expected a status code \(429\) or a class \(2xx, 4xx, 5xx\)/);
  });
});

describe('routeplane logs -f: the same filters, live', () => {
  it('prints only what matches, past and live', async () => {
    const follow = spawnCli(
      ['logs', '-f', '--decisions', '--config', config, '--session', TWO.slice(0, 6)],
      isolatedEnv(home.dir),
      home.dir,
    );
    try {
      await follow.until((p) => p.stdoutLines.length === 1, 'the one past decision of session two');
      // session one first, then two: decisions arrive in order, so when two's line is there, one's was passed over
      await ask('sonnet', 'session-one', CLAUDE);
      await ask('haiku', 'session-two', CODEX);
      await follow.until((p) => p.stdoutLines.length === 2, 'the live decision of session two');
      expect(follow.stdoutLines[1]).toMatch(new RegExp(` haiku +429 .* · codex_exec/0\\.169\\.0 ${TWO.slice(0, 8)}$`));
      expect(follow.stdout).not.toContain(ONE.slice(0, 8));
    } finally {
      await follow.kill();
    }
  });
});
