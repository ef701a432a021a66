import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BreakerEvent, DecisionEvent } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../../../daemon/test/helpers/test-daemon.js';
import { sessionTag } from '../../../daemon/test/policy-http/support.js';
import { writeClientConfig } from './client-config.js';

beforeAll(requireBuiltCli);

/**
 * One scripted run, the real daemon and the real CLI: three sessions over
 * two priced seats, seat a spends its window (a quota), recovers by a
 * probe, spends it and recovers again within five minutes, then both seats
 * run out of credit and the route fails open. Afterwards `routeplane usage --by session
 * --json` says what the decisions say; the webhook got exactly one
 * notification per (kind, subject) — the second quota and recovery of seat
 * a fell within the debounce — and the notify command, which hangs until the
 * test lets it go and then fails, held back no request and was said once.
 */
const home = tempHome();
let a: FakeUpstream;
let b: FakeUpstream;
let t: TestDaemon;
let hook: Server;
const received: Array<Record<string, unknown>> = [];
const marks = join(home.dir, 'command');

const PRICE_A = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
const PRICE_B = { input: 1, output: 5 };

/** What seat a answers: its answers report its 5-hour window; spent, 429 with the reset. */
let aMode: 'ok' | 'spent' | 'credit' = 'ok';
let bMode: 'ok' | 'credit' = 'ok';

function windowHeaders(spent: boolean): Record<string, string> {
  const reset = String(Math.floor(Date.now() / 1000) + 3_600);
  return {
    'anthropic-ratelimit-unified-status': spent ? 'rejected' : 'allowed',
    'anthropic-ratelimit-unified-reset': reset,
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
    'anthropic-ratelimit-unified-5h-utilization': spent ? '1.02' : '0.40',
    'anthropic-ratelimit-unified-5h-reset': reset,
    'anthropic-ratelimit-unified-5h-status': spent ? 'rejected' : 'allowed',
  };
}

const message = (model: string, usage: Record<string, number>) => ({
  id: 'msg_run',
  type: 'message',
  role: 'assistant',
  model,
  content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn',
  usage,
});

const seatA: Behaviour = (req, res) =>
  aMode === 'credit'
    ? respond.json(402, { type: 'error', error: { type: 'billing_error', message: 'Your account is out of credit.' } })(req, res)
    : aMode === 'spent'
      ? respond.json(
          429,
          { type: 'error', error: { type: 'rate_limit_error', message: "This request would exceed your account's rate limit." } },
          windowHeaders(true),
        )(req, res)
      : respond.json(
          200,
          message(String(req.json?.model), {
            input_tokens: 1_000,
            output_tokens: 100,
            cache_read_input_tokens: 500,
            cache_creation_input_tokens: 50,
          }),
          windowHeaders(false),
        )(req, res);

const seatB: Behaviour = (req, res) =>
  bMode === 'credit'
    ? respond.json(400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' },
      })(req, res)
    : respond.json(200, message(String(req.json?.model), { input_tokens: 2_000, output_tokens: 200 }))(req, res);

/** The notify command: notes that it started (with its text), then hangs until the test writes `release`, then fails. */
const HANG = `
const fs = require('node:fs');
const [dir, text] = process.argv.slice(2);
fs.appendFileSync(dir + '/started', process.pid + ' ' + text + '\\n');
const poll = setInterval(() => {
  if (!fs.existsSync(dir + '/release')) return;
  clearInterval(poll);
  fs.appendFileSync(dir + '/ended', process.pid + '\\n');
  process.exit(1);
}, 20);
`;

beforeAll(async () => {
  const script = join(home.dir, 'hang.cjs');
  writeFileSync(script, HANG);
  mkdirSync(marks);
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
  a = await startFakeUpstream(seatA);
  b = await startFakeUpstream(seatB);
  t = await startTestDaemon({
    seats: [
      { id: 'a', provider: 'anthropic', upstream: a, price: PRICE_A },
      { id: 'b', provider: 'anthropic', upstream: b, price: PRICE_B },
    ],
    routes: [
      {
        model: 'claude',
        chain: [
          { seat: 'a', model: 'claude-sonnet-5' },
          { seat: 'b', model: 'claude-sonnet-5' },
        ],
      },
    ],
    // a quota is held its 1 s floor whatever reset is stated: its probe comes at once
    influence: { enabled: true, cooldown_secs: 60, max_quota_secs: 1 },
    notify: {
      command: [process.execPath, script, marks],
      webhook: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/T0KEN-in-the-path`,
    },
  });
});

afterAll(async () => {
  writeFileSync(join(marks, 'release'), '');
  await t?.close();
  await Promise.all([a?.close(), b?.close()]);
  hook?.closeAllConnections();
  await new Promise((ok) => hook?.close(ok));
  home.remove();
});

const sent: DecisionEvent[] = [];

async function ask(session: string): Promise<DecisionEvent> {
  const res = await t.post(
    '/v1/messages',
    { model: 'claude', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] },
    { 'x-routeplane-session': session, 'user-agent': 'claude-cli/2.1.197 (external, cli)' },
  );
  await res.arrayBuffer();
  const id = res.headers.get('x-routeplane-request-id');
  const decision = await t.events.take((e): e is DecisionEvent => e.type === 'decision' && e.request_id === id);
  sent.push(decision);
  return decision;
}

/** Waits until the latest event about `key` is `action` (a deadline passing, a probe's verdict). */
async function until(key: string, action: BreakerEvent['action']): Promise<void> {
  await vi.waitFor(
    () => {
      const last = t.events.events.filter((e): e is BreakerEvent => e.type === 'breaker' && e.key === key).at(-1);
      if (last?.action !== action) throw new Error(`${key} is at ${last?.action ?? 'nothing'}, not ${action}`);
    },
    { timeout: 10_000, interval: 20 },
  );
}

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];

describe('a scripted run', () => {
  it('quota, recovery, again within five minutes, then fail open: the requests go on while the command hangs', async () => {
    expect((await ask('session-1')).served_by).toBe('a/claude-sonnet-5');
    expect((await ask('session-2')).served_by).toBe('a/claude-sonnet-5');

    aMode = 'spent';
    const tripped = await ask('session-3');
    expect(tripped.attempts.map((x) => [x.seat, x.evidence])).toEqual([
      ['a', 'quota'],
      ['b', 'ok'],
    ]);
    // the quota's notification: the command has started and hangs, the webhook has it
    await vi.waitFor(() => expect(lines(join(marks, 'started'))).toHaveLength(1), { timeout: 10_000, interval: 20 });
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000, interval: 20 });
    // a request now is answered while that command is still hanging: it never waited for it
    const meanwhile = await ask('session-1');
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.served_by).toBe('b/claude-sonnet-5');
    expect(lines(join(marks, 'ended'))).toEqual([]);
    const [pid] = lines(join(marks, 'started'))[0]!.split(' ');
    expect(() => process.kill(Number(pid), 0)).not.toThrow();
    expect(t.logs.filter((l) => l.startsWith('notify:'))).toEqual([]);

    // the quota passes, a's probe succeeds: recovered
    await until('quota:a', 'probe_ready');
    aMode = 'ok';
    expect((await ask('session-2')).served_by).toBe('a/claude-sonnet-5');
    await until('quota:a', 'cleared');

    // within five minutes, again: a trip and a recovery that notify nobody
    aMode = 'spent';
    expect((await ask('session-3')).served_by).toBe('b/claude-sonnet-5');
    await until('quota:a', 'probe_ready');
    aMode = 'ok';
    expect((await ask('session-1')).served_by).toBe('a/claude-sonnet-5');
    await until('quota:a', 'cleared');

    // both run out of credit (held a minute): then the route fails open
    aMode = 'credit';
    bMode = 'credit';
    expect((await ask('session-2')).status).toBe(402);
    const failOpen = await ask('session-3');
    expect(failOpen.fail_open).toBe(true);

    await vi.waitFor(() => expect(received.length).toBeGreaterThanOrEqual(5), { timeout: 10_000, interval: 20 });
  });

  it('the webhook got each notification once — the second quota and recovery of a fell within the debounce', () => {
    const subject = (n: Record<string, unknown>) => `${n.kind} ${n.seat ?? n.route}`;
    expect(received.map(subject).sort()).toEqual(['credit a', 'credit b', 'fail_open claude', 'quota a', 'recovered a']);
    const of = (name: string) => received.find((n) => subject(n) === name)!;
    expect(of('quota a')).toEqual({
      kind: 'quota',
      text: expect.stringMatching(/^seat a spent its 5h window \(quota\) — resets \d\d:\d\d \(in 1s\); requests go to b$/),
      seat: 'a',
      model: null,
      route: null,
      until: expect.any(Number),
      ts: expect.any(Number),
    });
    expect(of('recovered a')).toMatchObject({ text: 'seat a is back: quota cleared (probe succeeded)', until: null });
    expect(of('credit a').text).toMatch(/^seat a ran out of credit \(402 billing_error\) — probe in 1m00s; /);
    expect(of('credit b').text).toBe(
      'seat b ran out of credit (400 credit balance is too low) — probe in 1m00s; every other target is held back too, so requests fail open',
    );
    expect(of('fail_open claude')).toMatchObject({
      route: 'claude',
      seat: null,
      text: 'route claude failed open: every target is held back, so requests go to them in configured order',
    });
    // never a credential
    const all = JSON.stringify(received);
    for (const key of Object.values(t.keys)) expect(all).not.toContain(key);
  });

  it('the command ran once per notification, its text as its last argument; failing, it was said once', async () => {
    // each notification started the command (a node process takes a moment to write its line)
    await vi.waitFor(() => expect(lines(join(marks, 'started'))).toHaveLength(received.length), { timeout: 10_000, interval: 20 });
    const started = lines(join(marks, 'started'));
    expect(started.map((l) => l.slice(l.indexOf(' ') + 1)).sort()).toEqual(received.map((n) => String(n.text)).sort());
    writeFileSync(join(marks, 'release'), '');
    await vi.waitFor(() => expect(lines(join(marks, 'ended'))).toHaveLength(started.length), { timeout: 10_000, interval: 20 });
    // each one is gone (reaped by this process, where the daemon runs): the daemon has seen every failure
    const pids = started.map((l) => Number(l.split(' ')[0]));
    await vi.waitFor(
      () => {
        for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
      },
      { timeout: 10_000, interval: 20 },
    );
    await new Promise((resolve) => setImmediate(resolve));
    const said = t.logs.filter((l) => l.startsWith('notify:'));
    expect(said).toEqual(['notify: command node exited with 1; routing goes on (a failing command is said once per 10 minutes)']);
    // the webhook's path holds its token: never said (it did not fail here either)
    expect(t.logs.join('\n')).not.toContain('T0KEN');
  });
});

describe('routeplane usage --by session --json', () => {
  it('equals the decisions sent, session by session', async () => {
    await vi.waitFor(() => expect(lines(t.decisionLogPath!)).toHaveLength(sent.length), { timeout: 10_000, interval: 20 });
    const config = writeClientConfig(home.dir, { decisionLog: t.decisionLogPath });
    const result = await runCli(
      ['usage', '--config', config, '--by', 'session', '--since', '1h', '--json'],
      isolatedEnv(home.dir),
      home.dir,
    );
    // the log began with this run, within the hour asked for
    expect(result.stderr).toMatch(/^routeplane: the log starts at \d{4}-\d\d-\d\d \d\d:\d\d; earlier requests are not counted\n$/);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);

    // what the decisions say, summed here independently of the CLI
    const expected = new Map<
      string,
      { requests: number; served: number; failed: number; failovers: number; tokens: Record<string, number>; cost: number }
    >();
    for (const d of sent) {
      const row = expected.get(d.session!) ?? {
        requests: 0,
        served: 0,
        failed: 0,
        failovers: 0,
        tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
        cost: 0,
      };
      row.requests += 1;
      if (d.status < 300) row.served += 1;
      else row.failed += 1;
      if (new Set(d.attempts.map((x) => `${x.seat}/${x.model}`)).size > 1) row.failovers += 1;
      row.tokens.input! += d.usage?.input_tokens ?? 0;
      row.tokens.output! += d.usage?.output_tokens ?? 0;
      row.tokens.cache_read! += d.usage?.cache_read_tokens ?? 0;
      row.tokens.cache_write! += d.usage?.cache_write_tokens ?? 0;
      row.cost += d.cost ?? 0;
      expected.set(d.session!, row);
    }
    expect(new Set(report.rows.map((r: { key: string }) => r.key))).toEqual(
      new Set(['session-1', 'session-2', 'session-3'].map(sessionTag)),
    );
    for (const row of report.rows) {
      const want = expected.get(row.key)!;
      expect({ ...row, cost: undefined }).toEqual({ key: row.key, ...want, cost: undefined });
      expect(row.cost).toBeCloseTo(want.cost, 9);
    }
    expect(report.total.requests).toBe(sent.length);
    // every served answer was priced: a's 1,000 in × 3 + 100 out × 15 + 500 cache read × 0.3 + 50 cache write × 3.75 per million
    expect(sent.filter((d) => d.served_by === 'a/claude-sonnet-5' && d.status === 200).every((d) => d.cost === 0.0048375)).toBe(true);
  });
});
