import { type OpenBreaker, type Snapshot, type StatusSummary, tripReason, v1Scope } from '@routeplane/shared';
import { Chalk } from 'chalk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectControl } from '../../src/client/control-client.js';
import { formatStatus } from '../../src/output/status-view.js';
import { message } from '../../../daemon/test/control/tripped-daemon.js';
import { respond, startFakeUpstream, type FakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../../../daemon/test/helpers/test-daemon.js';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';
import { trippedDaemonFor } from './tripped-daemon-per-test.js';

beforeAll(requireBuiltCli);

/** The open breakers a snapshot implies, in the status shape: every breaker of `breakers[]`. */
function openFromSnapshot(snapshot: Snapshot): OpenBreaker[] {
  return snapshot.breakers.map((b) => ({
    scope: v1Scope(b.kind, b.scope),
    seat: b.seat,
    model: b.model,
    reason: tripReason(b.kind, b.scope),
    refused_count: b.refused_count,
    until: b.until,
    key: b.key,
    kind: b.kind,
    phase: b.phase,
    skipped_count: b.skipped_count,
    reset_at: b.reset_at,
    signal: b.signal,
  }));
}

const byKey = (a: OpenBreaker, b: OpenBreaker) => a.key.localeCompare(b.key);

/** What `status` says after the daemon's lines (their number depends on how many seats reported tokens). */
const afterDaemon = (stdout: string) => {
  const lines = stdout.trimEnd().split('\n');
  return lines.slice(lines.findIndex((l, i) => i > 0 && !l.startsWith('  ')));
};

/** 2h14m: a subscription window that resets this afternoon */
const QUOTA_SECS = 2 * 3600 + 14 * 60;

/**
 * One daemon for the file, in front of upstreams that open one breaker of
 * each kind a person reads differently: credit (probe in), a rate limit
 * (ends in), a quota (until a time of day), a model's errors.
 */
let t: TestDaemon;
const upstreams: FakeUpstream[] = [];
const home = tempHome();

beforeAll(async () => {
  const credit = await startFakeUpstream(respond.json(402, { type: 'error', error: { type: 'billing_error', message: 'no credit' } }));
  const limited = await startFakeUpstream(respond.rateLimited('600'));
  const quota = await startFakeUpstream(
    respond.json(429, {
      error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', resets_in_seconds: QUOTA_SECS },
    }),
  );
  const team = await startFakeUpstream((req, res) =>
    req.json?.model === 'haiku-x' ? respond.status(500)(req, res) : respond.anthropicMessage()(req, res),
  );
  const openai = await startFakeUpstream(respond.openaiChat());
  upstreams.push(credit, limited, quota, team, openai);
  t = await startTestDaemon({
    seats: [
      { id: 'max-a', provider: 'anthropic', upstream: credit },
      { id: 'rl', provider: 'anthropic', upstream: limited },
      { id: 'team', provider: 'anthropic', upstream: team },
      { id: 'codex', provider: 'openai', upstream: quota },
      { id: 'api', provider: 'openai', upstream: openai },
    ],
    routes: [
      {
        model: 'sonnet',
        chain: [
          { seat: 'max-a', model: 'sonnet-x' },
          { seat: 'team', model: 'sonnet-x' },
        ],
      },
      {
        model: 'haiku',
        chain: [
          { seat: 'team', model: 'haiku-x' },
          { seat: 'rl', model: 'haiku-x' },
        ],
      },
      {
        model: 'gpt',
        chain: [
          { seat: 'codex', model: 'gpt-x' },
          { seat: 'api', model: 'gpt-x' },
        ],
      },
    ],
    influence: { enabled: true, cooldown_secs: 600, max_cooldown_secs: 900, trip_threshold: 1, window_secs: 300 },
  });
  for (const route of ['sonnet', 'haiku', 'haiku']) {
    await (await t.post('/v1/messages', message(route))).arrayBuffer();
    await t.events.nextDecision();
  }
  await (await t.post('/v1/chat/completions', { model: 'gpt', messages: [{ role: 'user', content: 'hi' }] })).arrayBuffer();
  await t.events.nextDecision();
});

afterAll(async () => {
  await t?.close();
  await Promise.all(upstreams.map((u) => u.close()));
  home.remove();
});

const status = (...args: string[]) =>
  runCli(['status', '--socket', t.daemon.socketPath, ...args], isolatedEnv(home.dir, { TZ: 'UTC' }), home.dir);

// The cases only read the one daemon: they run side by side.
describe.concurrent('routeplane status', () => {
  it('--json prints exactly the control status result: {now, daemon, counters, open} with the open breakers of the snapshot', async () => {
    const client = await connectControl(t.daemon.socketPath);
    const snapshot = await client.request('snapshot');
    client.close();
    const result = await status('--json');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const printed = JSON.parse(result.stdout) as StatusSummary;
    expect(Object.keys(printed).sort()).toEqual(['counters', 'daemon', 'now', 'open', 'seats', 'tokens']);
    // every configured seat, its usage as the snapshot has it (these fakes report no windows)
    expect(printed.seats).toEqual(snapshot.seats.map((s) => ({ id: s.id, provider: s.provider, auth: s.auth, usage: s.usage })));
    expect(printed.daemon).toEqual({
      version: expect.any(String),
      pid: process.pid,
      started_at: t.context.startedAt,
      http_url: t.url,
      config_path: null,
      store: { kind: 'memory', state: 'ok', since: t.context.startedAt, daemons: 1 },
    });
    expect(printed.counters).toEqual({ requests: 4, failovers: 4, fail_open: 1 });
    expect([...printed.open].sort(byKey)).toEqual(openFromSnapshot(snapshot).sort(byKey));
  });

  it('shows the daemon, then each open breaker: kind, target, signal in words, time left, counts in words', async () => {
    const result = await status();
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 5)).toEqual([
      expect.stringMatching(new RegExp(`^● routeplane \\d+\\.\\d+\\.\\d+\\S* · pid ${process.pid} · up \\d+s$`)),
      `  url      ${t.url}`,
      '  config   none (started without a config file)',
      '  store    memory',
      '  traffic  4 requests · 4 failovers · 1 failed open',
    ]);
    const [header, ...rows] = afterDaemon(result.stdout);
    expect(header).toBe('● 4 open breakers — these targets route last until they recover');
    expect(rows).toHaveLength(4);
    const row = (start: string) => rows.find((r) => r.startsWith(`  ${start}`)) ?? `(no ${start} row in ${result.stdout})`;
    const left = '(10m00s|9m\\d\\ds)';
    expect(row('credit ')).toMatch(new RegExp(`^  credit +max-a +402 billing_error +probe in ${left}$`));
    expect(row('rate limit ')).toMatch(new RegExp(`^  rate limit +rl +429 fake_error \\(retry-after\\) +ends in ${left} +failed again 1$`));
    expect(row('errors ')).toMatch(new RegExp(`^  errors +team/haiku-x +500 fake_error +probe in ${left} +failed again 1$`));
    // the quota's reset as a time of day (the CLI runs in UTC here), and how far away it is
    const { open } = JSON.parse((await status('--json')).stdout) as StatusSummary;
    const until = open.find((b) => b.kind === 'quota')!.until!;
    const at = new Date(until).toISOString().slice(11, 16);
    expect(row('quota ')).toMatch(new RegExp(`^  quota +codex +429 usage_limit_reached +quota until ${at} \\(in 2h1[34]m\\)$`));
    // colour is off without a terminal and with NO_COLOR: no escape codes
    expect(result.stdout).not.toContain('\u001b[');
  });
});

describe('routeplane status when nothing is open', () => {
  it('says all clear in one line after the daemon, and names disabled influence', async (test) => {
    const [on, off] = await Promise.all([trippedDaemonFor(test), trippedDaemonFor(test, false)]);
    const [clear, disabled] = await Promise.all([
      runCli(['status', '--socket', on.socket], isolatedEnv(on.home), on.home),
      runCli(['status', '--socket', off.socket], isolatedEnv(off.home), off.home),
    ]);
    expect(clear.code).toBe(0);
    expect(afterDaemon(clear.stdout)).toEqual(['● all clear — no open breakers, every chain routes in configured order']);
    expect(disabled.code).toBe(0);
    expect(afterDaemon(disabled.stdout)).toEqual(['○ routing influence is disabled — no breakers, chains route in configured order']);
  });
});

describe('the status view', () => {
  const now = Date.UTC(2025, 11, 1, 11, 46, 0);
  const breaker = (over: Partial<OpenBreaker>): OpenBreaker => ({
    scope: 'seat_credit',
    seat: 'seat-a',
    model: null,
    reason: 'credit',
    refused_count: 0,
    until: now + 41_000,
    key: 'credit:seat-a',
    kind: 'credit',
    phase: 'open',
    skipped_count: 0,
    reset_at: null,
    signal: null,
    ...over,
  });
  const view: StatusSummary = {
    now,
    daemon: {
      version: '1.2.3',
      pid: 42,
      started_at: now - 2 * 3600_000 - 3 * 60_000,
      http_url: 'http://127.0.0.1:4141',
      config_path: '/home/me/.config/routeplane/routeplane.yaml',
      store: { kind: 'redis', state: 'degraded', since: now - 12_000, daemons: 1 },
    },
    counters: { requests: 10, failovers: 2, fail_open: 0 },
    open: [
      breaker({ refused_count: 2, skipped_count: 4 }),
      breaker({ key: 'quota:seat-b', kind: 'quota', scope: 'seat_quota', seat: 'seat-b', until: Date.UTC(2025, 11, 1, 14, 0, 0) }),
      breaker({
        key: 'errors:provider:https://api.example.com/m',
        kind: 'errors',
        scope: 'provider_model',
        seat: null,
        model: 'm',
        phase: 'probing',
      }),
    ],
  };

  it('counts named for what they count, a quota as a time of day, a provider breaker by its upstream', () => {
    const lines = formatStatus(view, {
      influenceEnabled: true,
      colour: new Chalk({ level: 0 }),
      wallClock: (at) => new Date(at).toISOString().slice(11, 16),
    });
    expect(lines).toEqual([
      '● routeplane 1.2.3 · pid 42 · up 2h03m',
      '  url      http://127.0.0.1:4141',
      '  config   /home/me/.config/routeplane/routeplane.yaml',
      '  store    redis degraded for 12s',
      '  traffic  10 requests · 2 failovers · 0 failed open',
      '● 3 open breakers — these targets route last until they recover',
      '  credit           seat-a                     probe in 41s                  failed again 2, skipped 4 background',
      '  quota            seat-b                     quota until 14:00 (in 2h14m)',
      '  provider errors  https://api.example.com/m  probing',
    ]);
  });

  it("each seat's usage windows as top shows them: the binding one with its reset as a time of day, and extra usage", () => {
    const lines = formatStatus(
      {
        ...view,
        open: [],
        seats: [
          {
            id: 'max-1',
            provider: 'anthropic',
            auth: 'passthrough',
            usage: {
              observed_at: now,
              windows: [
                { name: '5h', utilization: 0.64, reset_at: Date.UTC(2025, 11, 1, 16, 0, 0), status: 'allowed' },
                { name: '7d', utilization: 0.12, reset_at: Date.UTC(2025, 11, 5, 9, 0, 0), status: 'allowed' },
              ],
              extra_usage: true,
            },
          },
          { id: 'idle', provider: 'openai', auth: 'bearer', usage: null },
          {
            id: 'api-key',
            provider: 'openai',
            auth: 'bearer',
            usage: { observed_at: now, windows: [{ name: 'requests', utilization: 0.1, reset_at: null, status: null }], extra_usage: null },
          },
        ],
      },
      { influenceEnabled: false, colour: new Chalk({ level: 0 }), wallClock: (at) => new Date(at).toISOString().slice(11, 16) },
    );
    expect(lines.slice(5, 7)).toEqual([
      '  usage    max-1    5h 64% resets 16:00 · 7d 12% · extra usage',
      '           api-key  requests 10%',
    ]);
  });
});
