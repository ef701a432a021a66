import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DecisionEvent } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, startDaemonWithUpstreams, type TrippedDaemon } from '../../../daemon/test/control/tripped-daemon.js';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';
import { writeClientConfig } from './client-config.js';

beforeAll(requireBuiltCli);

/** One daemon for the file: two decisions, a fail-over and a plain one, in its log and in its `recent` ring. */
let d: TrippedDaemon;
let failover: DecisionEvent;
let plain: DecisionEvent;
const home = tempHome();

beforeAll(async () => {
  d = await startDaemonWithUpstreams(true);
  const decided: DecisionEvent[] = [];
  for (const route of ['sonnet', 'sonnet']) {
    await (await d.t.post('/v1/messages', message(route))).arrayBuffer();
    decided.push(await d.t.events.nextDecision());
  }
  [failover, plain] = decided as [DecisionEvent, DecisionEvent];
  await waitForLines(d.t.decisionLogPath!, 2);
});

afterAll(async () => {
  await d?.close();
  home.remove();
});

const env = () => isolatedEnv(home.dir, { TZ: 'UTC' });
const why = (args: string[], config: string) => runCli(['why', ...args, '--config', config], env(), home.dir);

// The cases only read the one daemon and its log, each writing files of its own: they run side by
// side.
describe.concurrent('routeplane why', () => {
  it('explains a decision from the decision log: route, chain with states, every attempt, who served', async () => {
    // no daemon at this socket: the log alone answers
    const config = writeClientConfig(home.dir, { socket: join(home.dir, 'none.sock'), decisionLog: d.t.decisionLogPath, name: 'log.yaml' });
    const result = await why([failover.request_id], config);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^request +${failover.request_id} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d · anthropic`));
    expect(lines).toContain('route     sonnet');
    expect(lines).toContain('agent     any · lane foreground · session none · balance ordered');
    expect(lines).toContainEqual(expect.stringMatching(/^ +1 ● max-a\/sonnet-x +healthy$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +1 max-a\/sonnet-x +402 +credit +\d+ms · 402 fake_error$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +2 team\/sonnet-x +ok +ok +\d+ms$/));
    expect(lines).toContainEqual(expect.stringMatching(/^served +team\/sonnet-x · status 200 in \d+ms$/));

    // the second request found max-a tripped: the chain says so, with the time left
    const second = (await why([plain.request_id], config)).stdout;
    expect(second).toMatch(/^ +2 ✗ max-a\/sonnet-x +tripped · credit · probe in (10m00s|9m\d\ds)$/m);
  });

  it('--json prints the decision event as stored; 8 characters of the id are enough when only one decision starts so', async () => {
    const config = writeClientConfig(home.dir, {
      socket: join(home.dir, 'none.sock'),
      decisionLog: d.t.decisionLogPath,
      name: 'json.yaml',
    });
    const stored = readFileSync(d.t.decisionLogPath!, 'utf8')
      .split('\n')
      .find((l) => l.includes(failover.request_id));
    const result = await why([failover.request_id.slice(0, 8), '--json'], config);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${stored}\n`);
    expect(JSON.parse(result.stdout)).toEqual(failover);
  });

  it('reads the rotated .1 file too', async () => {
    const dir = join(home.dir, 'rotated');
    mkdirSync(dir);
    const log = join(dir, 'decisions.ndjson');
    writeFileSync(`${log}.1`, readFileSync(d.t.decisionLogPath!));
    writeFileSync(log, '');
    const config = writeClientConfig(dir, { socket: join(dir, 'none.sock'), decisionLog: log });
    const result = await why([plain.request_id, '--json'], config);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(plain);
  });

  it('asks the running daemon for its recent decisions when the log is off', async () => {
    const config = writeClientConfig(home.dir, { socket: d.t.daemon.socketPath, decisionLog: false, name: 'off.yaml' });
    const result = await why([plain.request_id, '--json'], config);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(plain);
  });

  it('not found: one line naming what it searched, exit 1', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const withLog = writeClientConfig(home.dir, { socket: d.t.daemon.socketPath, decisionLog: d.t.decisionLogPath, name: 'both.yaml' });
    const both = await why([missing], withLog);
    expect(both.code).toBe(1);
    expect(both.stdout).toBe('');
    expect(both.stderr).toBe(
      `routeplane: no decision ${missing} (searched ${d.t.decisionLogPath} (2 lines); the last 2 decision(s) of the daemon at ${d.t.daemon.socketPath})\n`,
    );
    const nothing = writeClientConfig(home.dir, { socket: join(home.dir, 'none.sock'), decisionLog: false, name: 'nothing.yaml' });
    const none = await why([missing], nothing);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      `routeplane: no decision ${missing} (searched no decision log (decision_log.path: false in ${nothing}); no daemon running at ${join(home.dir, 'none.sock')})\n`,
    );
  });

  it('an id shorter than 8 characters is taken whole; a start shared by two decisions asks for more (exit 2)', async () => {
    const dir = join(home.dir, 'twins');
    mkdirSync(dir);
    const log = join(dir, 'decisions.ndjson');
    const twin = (id: string) => JSON.stringify({ ...failover, request_id: id });
    writeFileSync(log, `${twin('abcdef12-0000-4000-8000-000000000001')}\n${twin('abcdef12-0000-4000-8000-000000000002')}\n`);
    const config = writeClientConfig(dir, { socket: join(dir, 'none.sock'), decisionLog: log });
    const shared = await why(['abcdef12'], config);
    expect(shared.code).toBe(2);
    expect(shared.stderr).toBe(
      'routeplane: abcdef12 starts 2 request ids (abcdef12-0000-4000-8000-000000000001, abcdef12-0000-4000-8000-000000000002): give more of it\n',
    );
    expect((await why(['abcdef12-0000-4000-8000-000000000002', '--json'], config)).code).toBe(0);
    const short = await why(['abcdef1'], config);
    expect(short.code).toBe(1);
  });
});

/** Waits for the decision log to hold `count` lines (it is written off the request path). */
async function waitForLines(path: string, count: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    let lines = 0;
    try {
      lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
    } catch {
      // not created yet
    }
    if (lines >= count) return;
    if (Date.now() > deadline) throw new Error(`decision log ${path} never reached ${count} lines`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
