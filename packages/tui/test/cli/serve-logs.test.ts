import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonEvent } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, respond, startFakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';
import { type CliProcess, isolatedEnv, requireBuiltCli, runCli, spawnCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';

/**
 * `serve` and `logs -f` over one scripted sequence:
 * trip, probe, clear, reset, a daemon restart — human lines and JSON — with
 * no secret in any line. One real `serve` process at a time over real fake
 * upstreams, two `logs -f` processes following it the whole way.
 */

beforeAll(requireBuiltCli);

const KEY_A = 'sk-credit-a-6f1d0c9e2b7a';
const KEY_B = 'sk-team-b-94c2e71a05d3';
const TIME = '\\d\\d:\\d\\d:\\d\\d';

const home = tempHome();
const cleanups: Array<() => unknown> = [() => home.remove()];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let creditA: 'broke' | 'paid' = 'broke';
let upstreamA: FakeUpstream;
let upstreamB: FakeUpstream;

function config(file: string, socket: string, extra = ''): string {
  writeFileSync(
    file,
    [
      'server:',
      '  listen: "127.0.0.1:0"',
      'control:',
      `  socket: "${socket}"`,
      'decision_log:',
      `  path: "${join(home.dir, 'decisions.ndjson')}"`,
      'seats:',
      `  - { id: credit-a, provider: anthropic, base_url: "${upstreamA.url}", api_key_env: RP_KEY_A }`,
      `  - { id: team-b, provider: anthropic, base_url: "${upstreamB.url}", api_key_env: RP_KEY_B }`,
      'routes:',
      '  - model: sonnet',
      '    chain: [{ seat: credit-a, model: sonnet-x }, { seat: team-b, model: sonnet-x }]',
      '  - model: haiku',
      '    chain: [{ seat: credit-a, model: haiku-x }, { seat: team-b, model: haiku-x }]',
      'influence:',
      '  enabled: true',
      '  cooldown_secs: 600',
      '  trip_threshold: 1',
      extra,
    ].join('\n'),
  );
  return file;
}

beforeAll(async () => {
  // seat credit-a: out of credit (its 402 echoes the key it was sent: it must never show), or paid up; haiku-x fails there
  upstreamA = await startFakeUpstream((req, res) => {
    if (req.json?.model === 'haiku-x')
      return respond.json(500, { type: 'error', error: { type: 'api_error', message: 'Internal server error' } })(req, res);
    if (creditA === 'paid') return respond.anthropicMessage()(req, res);
    return respond.json(402, {
      type: 'error',
      error: { type: 'billing_error', message: `This organization has no credit left (key ${String(req.headers['x-api-key'])})` },
    })(req, res);
  });
  upstreamB = await startFakeUpstream(respond.anthropicMessage());
  cleanups.push(
    () => upstreamA.close(),
    () => upstreamB.close(),
  );
});

function serve(file: string, ...flags: string[]): CliProcess {
  const p = spawnCli(['serve', '--config', file, ...flags], isolatedEnv(home.dir, { RP_KEY_A: KEY_A, RP_KEY_B: KEY_B }), home.dir);
  cleanups.push(() => {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  });
  return p;
}

async function listening(p: CliProcess): Promise<string> {
  await p.until((q) => q.stdout.includes('\n'), 'the listening line');
  const match = /^routeplane listening on (http:\/\/\S+) \(control: .+\)$/.exec(p.stdoutLines[0] ?? '');
  expect(match, p.stdout).not.toBeNull();
  return match![1]!;
}

async function ask(url: string, model: string): Promise<string> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.headers.get('x-routeplane-request-id')!;
}

/** stderr lines that carry a time: what serve said once started */
const timed = (p: CliProcess) => p.stderr.split('\n').filter((l) => new RegExp(`^${TIME} `).test(l));
const hasLine = (text: string, pattern: RegExp) => text.split('\n').some((l) => pattern.test(l));
const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as DaemonEvent | { type: 'start' | 'log'; [k: string]: unknown });

describe('serve and logs -f over trip, probe, clear, reset and a daemon restart', () => {
  it('say each transition once, in words or as NDJSON, follow the restart, and never show a key', { timeout: 60_000 }, async () => {
    const socket = join(home.dir, 'control.sock');
    const file = config(join(home.dir, 'routeplane.yaml'), socket);
    const env = isolatedEnv(home.dir);

    // --- the first daemon, saying what it does in words
    const first = serve(file);
    let url = await listening(first);
    await first.until((p) => p.stderr.includes('store '), 'the start lines');
    expect(first.stderr.split('\n').slice(0, 6)).toEqual([
      `config     ${file}`,
      `listening  ${url}`,
      `control    ${socket}`,
      `decisions  ${join(home.dir, 'decisions.ndjson')}`,
      'influence  on (cooldown 10m00s doubling up to 15m00s; 1 failure(s) within 5m00s trip a model)',
      'store      memory',
    ]);

    // status names the daemon's config file and pid
    const status = await runCli(['status', '--config', file], env, home.dir);
    expect(status.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(new RegExp(`^● routeplane \\S+ · pid ${first.child.pid} · up \\d+s$`)),
      `  url      ${url}`,
      `  config   ${file}`,
    ]);

    const text = spawnCli(['logs', '-f', '--config', file], env, home.dir);
    const json = spawnCli(['logs', '-f', '--json', '--config', file], env, home.dir);
    for (const p of [text, json]) {
      cleanups.push(() => p.child.kill('SIGKILL'));
      // said once connected and subscribed, before anything is followed
      await p.until((q) => q.stderr.includes('no decision log at'), 'logs -f following');
    }
    const both = async (pattern: RegExp, what: string) => {
      await first.until((p) => hasLine(p.stderr, pattern), `serve: ${what}`);
      await text.until((p) => hasLine(p.stdout, pattern), `logs -f: ${what}`);
    };

    // trip: a model's errors (threshold 1), then the seat's credit
    const ids = [await ask(url, 'haiku')];
    await both(
      new RegExp(`^${TIME} tripped errors credit-a/haiku-x \\(500 api_error, 1 consecutive failures\\) probe in 10m00s$`),
      'errors trip',
    );
    ids.push(await ask(url, 'sonnet'));
    await both(new RegExp(`^${TIME} tripped credit credit-a \\(402 billing_error\\) probe in 10m00s$`), 'credit trip');
    // probe: made ready by hand, then a paid-up seat answers the probe and clears
    expect((await runCli(['breakers', 'probe', '--seat', 'credit-a', '--config', file], env, home.dir)).code).toBe(0);
    await both(new RegExp(`^${TIME} probe now credit-a by control socket: ready 2$`), 'probe command');
    creditA = 'paid';
    ids.push(await ask(url, 'sonnet'));
    await both(new RegExp(`^${TIME} cleared credit credit-a \\(probe succeeded\\)$`), 'probe success');
    // out of credit again, then reset by hand: both of the seat's breakers in one line
    creditA = 'broke';
    ids.push(await ask(url, 'sonnet'));
    await first.until((p) => timed(p).filter((l) => l.includes('tripped credit')).length === 2, 'the second credit trip');
    expect((await runCli(['breakers', 'reset', '--seat', 'credit-a', '--config', file], env, home.dir)).code).toBe(0);
    await both(new RegExp(`^${TIME} reset credit-a by control socket: cleared 2$`), 'reset');

    expect(timed(first).map((l) => l.slice(9))).toEqual([
      'tripped errors credit-a/haiku-x (500 api_error, 1 consecutive failures) probe in 10m00s',
      'tripped credit credit-a (402 billing_error) probe in 10m00s',
      'probe now credit-a by control socket: ready 2',
      'probing credit credit-a',
      'cleared credit credit-a (probe succeeded)',
      'tripped credit credit-a (402 billing_error) probe in 10m00s',
      'reset credit-a by control socket: cleared 2',
    ]);
    // logs -f: the same transitions between the decisions, each attempt named seat/model, the probe marked
    const decisions = [
      / haiku +200 +\d+ms credit-a\/haiku-x 500 → team-b\/haiku-x ok · node$/,
      / sonnet +200 +\d+ms credit-a\/sonnet-x 402 → team-b\/sonnet-x ok · node$/,
      / sonnet +200 +\d+ms credit-a\/sonnet-x probe ok · node$/,
      / sonnet +200 +\d+ms credit-a\/sonnet-x 402 → team-b\/sonnet-x ok · node$/,
    ];
    const transitions = timed(first).map((l) => l.slice(9));
    const expectedText = [
      transitions[0],
      decisions[0],
      transitions[1],
      decisions[1],
      transitions[2],
      transitions[3],
      transitions[4],
      decisions[2],
      transitions[5],
      decisions[3],
      transitions[6],
    ];
    expect(text.stdoutLines).toHaveLength(expectedText.length);
    text.stdoutLines.forEach((line, i) => {
      const want = expectedText[i]!;
      expect(line).toMatch(new RegExp(`^${TIME} `));
      if (typeof want === 'string') expect(line.slice(9), `line ${i}`).toBe(want);
      else expect(line, `line ${i}`).toMatch(want);
    });

    // --- restart: the second daemon writes NDJSON; the followers say so and go on
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(timed(first).at(-1)).toMatch(/ routeplane: SIGTERM received, shutting down$/);
    const second = serve(file, '--log', 'json');
    url = await listening(second);
    const restarted = new RegExp(`^routeplane: daemon restarted \\(pid ${second.child.pid}\\)$`);
    for (const p of [text, json]) await p.until((q) => hasLine(q.stderr, restarted), 'the restart said');
    expect(text.stderr).toMatch(/^routeplane: lost the daemon at .+control\.sock \(.+\); following again when it is back$/m);

    ids.push(await ask(url, 'sonnet'));
    await text.until((p) => p.stdoutLines.length === expectedText.length + 2, 'the trip and decision after the restart');
    expect((await runCli(['breakers', 'reset', '--config', file], env, home.dir)).code).toBe(0);
    await text.until((p) => p.stdoutLines.length === expectedText.length + 3, 'the reset after the restart');
    expect(text.stdoutLines.slice(-3).map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'tripped credit credit-a (402 billing_error) probe in 10m00s',
      expect.stringMatching(/^sonnet +200 +\d+ms credit-a\/sonnet-x 402 → team-b\/sonnet-x ok · node$/),
      'reset credit-a by control socket: cleared 1',
    ]);
    await second.until((p) => p.stderr.includes('"action":"reset"'), 'the reset event');
    const served = jsonLines(second.stderr);
    expect(served.map((e) => ('action' in e ? `${e.type} ${e.action}` : e.type))).toEqual(['start', 'breaker tripped', 'breaker reset']);
    expect(served[0]).toMatchObject({
      type: 'start',
      config_path: file,
      http_url: url,
      control_socket: socket,
      influence: true,
      store: { kind: 'memory' },
    });
    expect(served[1]).toMatchObject({ type: 'breaker', key: 'credit:credit-a', signal: { status: 402, type: 'billing_error' } });
    // the upstream put the key it was sent into its message: the line carries the message, not the key
    expect(JSON.stringify(served[1])).toMatch(/no credit left \(key [^)]/);

    // logs -f --json: every event as it came, decisions and breakers, the same ids as the answers carried
    await json.until((p) => p.stdoutLines.length >= 16, 'json');
    const followed = jsonLines(json.stdout) as DaemonEvent[];
    expect(followed.filter((e) => e.type === 'decision').map((e) => (e.type === 'decision' ? e.request_id : ''))).toEqual(ids);
    expect(followed.map((e) => (e.type === 'breaker' ? `${e.action} ${e.key}` : e.type))).toEqual([
      'tripped errors:credit-a/haiku-x',
      'decision',
      'tripped credit:credit-a',
      'decision',
      'probe_ready credit:credit-a',
      'probe_ready errors:credit-a/haiku-x',
      'probe_claimed credit:credit-a',
      'cleared credit:credit-a',
      'decision',
      'tripped credit:credit-a',
      'decision',
      'reset credit:credit-a',
      'reset errors:credit-a/haiku-x',
      // the second daemon
      'tripped credit:credit-a',
      'decision',
      'reset credit:credit-a',
    ]);

    // Ctrl-C ends a follower with 0
    for (const p of [text, json]) {
      p.child.kill('SIGINT');
      expect((await p.exited).code).toBe(0);
    }
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    // no key in any line anyone printed (the upstream echoed one into its error message)
    for (const p of [first, second, text, json]) {
      for (const key of [KEY_A, KEY_B]) expect(p.stdout + p.stderr).not.toContain(key);
    }
  });

  it('--quiet keeps only errors: a refused reload, not the start or a trip', { timeout: 30_000 }, async () => {
    const dir = tempHome();
    cleanups.push(dir.remove);
    const socket = join(dir.dir, 'control.sock');
    const file = config(join(dir.dir, 'routeplane.yaml'), socket);
    const quiet = serve(file, '--quiet');
    const url = await listening(quiet);
    await ask(url, 'sonnet'); // trips credit-a: not an error of the daemon's
    writeFileSync(file, 'seats: []\n');
    quiet.child.kill('SIGHUP');
    await quiet.until((p) => p.stderr.includes('reload refused'), 'the refused reload');
    quiet.child.kill('SIGTERM');
    expect((await quiet.exited).code).toBe(0);
    const lines = quiet.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(new RegExp(`^${TIME} reload refused: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `));
    expect(quiet.stdout + quiet.stderr).not.toContain(KEY_A);
  });
});
