import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DecisionEvent } from '@routeplane/shared';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { message, startDaemonWithUpstreams, type TrippedDaemon } from '../../../daemon/test/control/tripped-daemon.js';
import { isolatedEnv, requireBuiltCli, runCli, spawnCli, tempHomeFor } from '../../../daemon/test/helpers/cli-process.js';
import { writeClientConfig } from './client-config.js';

beforeAll(requireBuiltCli);

/** A daemon of its own for one test, closed when the test ends. */
async function daemon(test: TestContext): Promise<TrippedDaemon> {
  const d = await startDaemonWithUpstreams(true);
  test.onTestFinished(() => d.close());
  return d;
}

/** Sends `count` requests to `route` and waits for each decision. */
async function decide(d: TrippedDaemon, route: string, count: number): Promise<DecisionEvent[]> {
  const out: DecisionEvent[] = [];
  for (let i = 0; i < count; i++) {
    await (await d.t.post('/v1/messages', message(route))).arrayBuffer();
    out.push(await d.t.events.nextDecision());
  }
  return out;
}

const readDecisions = (path: string): DecisionEvent[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as DecisionEvent);

// Each case has its own daemon, log and HOME: the cases run side by side.
describe.concurrent('routeplane logs', () => {
  it('-n 5 prints the last five decisions, one line each: time, route, status, ms, attempt path naming seat and model of each', async (test) => {
    const d = await daemon(test);
    await decide(d, 'sonnet', 4);
    await decide(d, 'haiku', 3);
    const logPath = d.t.decisionLogPath!;
    await d.t.daemon.close(); // flushes the decision log
    const dir = tempHomeFor(test).dir;
    const config = writeClientConfig(dir, { decisionLog: logPath });

    const result = await runCli(['logs', '-n', '5', '--config', config], isolatedEnv(dir), dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    // the first of the five is the 3rd sonnet request: max-a now sits last, team serves at once
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d sonnet +200 +\d+ms team\/sonnet-x ok · node$/);
    // by the 3rd haiku request both of its targets are tripped: fail-open, said in words
    expect(lines[4]).toMatch(/^\d\d:\d\d:\d\d haiku +429 +\d+ms team\/haiku-x 500 → rl\/haiku-x 429 \(fail-open\) · node$/);

    const first = await runCli(['logs', '-n', '7', '--config', config], isolatedEnv(dir), dir);
    expect(first.stdout.split('\n')[0]).toMatch(/ sonnet +200 +\d+ms max-a\/sonnet-x 402 → team\/sonnet-x ok · node$/);
  });

  it('carries the date on a decision that was not made today', async (test) => {
    const d = await daemon(test);
    const [today] = await decide(d, 'sonnet', 1);
    const dir = tempHomeFor(test).dir;
    const log = join(dir, 'decisions.ndjson');
    const dayBefore = { ...today!, request_id: 'earlier', ts: today!.ts - 2 * 86_400_000 };
    writeFileSync(log, `${JSON.stringify(dayBefore)}\n${JSON.stringify(today)}\n`);
    const result = await runCli(['logs', '--config', writeClientConfig(dir, { decisionLog: log })], isolatedEnv(dir), dir);
    const [earlier, now] = result.stdout.trimEnd().split('\n');
    const date = new Date(dayBefore.ts);
    const ymd = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    expect(earlier).toMatch(new RegExp(`^${ymd} \\d\\d:\\d\\d:\\d\\d sonnet `));
    expect(now).toMatch(/^\d\d:\d\d:\d\d sonnet /);
  });

  it('--json prints the decisions as NDJSON, the same as the log holds', async (test) => {
    const d = await daemon(test);
    await decide(d, 'sonnet', 3);
    const logPath = d.t.decisionLogPath!;
    await d.t.daemon.close();
    const dir = tempHomeFor(test).dir;
    const config = writeClientConfig(dir, { decisionLog: logPath });
    const result = await runCli(['logs', '--json', '-n', '2', '--config', config], isolatedEnv(dir), dir);
    expect(result.code).toBe(0);
    const printed = result.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(printed).toEqual(readDecisions(logPath).slice(-2));
  });

  it('reads the default log under HOME when no config names one, and says when there is none', async (test) => {
    const dir = tempHomeFor(test).dir;
    const missing = await runCli(['logs'], isolatedEnv(dir), dir);
    expect(missing.code).toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim()).toBe(`routeplane: no decision log at ${join(dir, '.routeplane', 'decisions.ndjson')} yet`);

    const d = await daemon(test);
    await decide(d, 'sonnet', 2);
    const logPath = d.t.decisionLogPath!;
    await d.t.daemon.close();
    mkdirSync(join(dir, '.routeplane'));
    writeFileSync(join(dir, '.routeplane', 'decisions.ndjson'), readFileSync(logPath));
    const found = await runCli(['logs'], isolatedEnv(dir), dir);
    expect(found.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('says the log is disabled when the config turns it off', async (test) => {
    const dir = tempHomeFor(test).dir;
    const config = writeClientConfig(dir, { decisionLog: false });
    const result = await runCli(['logs', '--config', config], isolatedEnv(dir), dir);
    expect(result.code).toBe(0);
    expect(result.stderr.trim()).toBe(`routeplane: the decision log is disabled (decision_log.path: false in ${config})`);
  });

  it('-f --decisions prints the past, then follows new decisions (only) live from the socket until interrupted', async (test) => {
    const d = await daemon(test);
    const past = await decide(d, 'sonnet', 2);
    const dir = tempHomeFor(test).dir;
    const config = writeClientConfig(dir, { socket: d.t.daemon.socketPath, decisionLog: d.t.decisionLogPath });
    // the file is written asynchronously: wait until it holds both before reading it
    await waitForLines(test, d.t.decisionLogPath!, 2);

    const follow = spawnCli(['logs', '-f', '--json', '--decisions', '-n', '2', '--config', config], isolatedEnv(dir), dir);
    test.onTestFinished(() => follow.kill());
    await follow.until((p) => p.stdoutLines.length >= 2, 'the two past decisions');
    expect(follow.stdoutLines.map((l) => JSON.parse(l).request_id)).toEqual(past.map((p) => p.request_id));

    const [live] = await decide(d, 'haiku', 1);
    await follow.until((p) => p.stdoutLines.length >= 3, 'the live decision');
    expect(JSON.parse(follow.stdoutLines[2]!).request_id).toBe(live!.request_id);

    follow.child.kill('SIGINT');
    const result = await follow.exited;
    expect(result.code).toBe(0);
    expect(follow.stdoutLines).toHaveLength(3);
  });
});

/**
 * Waits for the decision log to hold `count` lines (it is written off the request path). Polls
 * with the test's own expect: the cases run side by side, and expect.poll needs to know whose it is.
 */
async function waitForLines(test: TestContext, path: string, count: number): Promise<void> {
  const lines = (): number => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0);
  await test.expect
    .poll(lines, { timeout: 15_000, interval: 10, message: `decision log ${path} reaching ${count} lines` })
    .toBeGreaterThanOrEqual(count);
}
