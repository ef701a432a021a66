import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BreakerEvent, DecisionEvent } from '@routeplane/shared';

// Acceptance for `routeplane demo` (issue 5): run the built CLI as a user would
// and check, from what it prints, that every breaker signal of the default
// scenario really happened in the real daemon. Needs `pnpm build` first.

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
// Speed 3 plays one loop and the start of the next in 21 s. Faster, the shortest troubles
// (the 529 burst: 8 scenario seconds, three sonnet requests needed after the streams in flight
// have finished) last so little real time that a starved machine can send too few requests into
// them. Twice the default agents send twice the requests into it: with the default 12 and a burst
// of 6 scenario seconds, the third 529 came 1.1 of its 2 real seconds in on a quiet machine, and
// too late about once in six runs of the whole suite.
const RUN_SECONDS = 21;
const SPEED = 3;
const AGENTS = 24;

interface AgentOutcomeLine {
  type: 'agent_outcome';
  kind: 'response' | 'transport_error' | 'aborted';
  status?: number;
  completion?: string;
  request_id?: string | null;
  served_by?: string | null;
}

interface Run {
  exitCode: number | null;
  stderr: string;
  stdout: string;
  start: { tmp_dir: string; socket: string; http_url: string; started_at: number };
  decisions: DecisionEvent[];
  breakers: BreakerEvent[];
  outcomes: AgentOutcomeLine[];
  scenes: { ts: number; loop: number; index: number; total: number; say: string }[];
  summary: Record<string, unknown> & { requests_sent: number; responses_received: number };
}

let run: Run;

function runDemo(args: string[]): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'demo', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

beforeAll(
  async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` before this test`);
    const { exitCode, stdout, stderr } = await runDemo([
      '--no-top',
      '--json',
      '--duration',
      String(RUN_SECONDS),
      '--speed',
      String(SPEED),
      '--agents',
      String(AGENTS),
    ]);
    const lines = stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l, i) => {
        try {
          return JSON.parse(l) as { type: string };
        } catch {
          throw new Error(`stdout line ${i + 1} is not JSON: ${l.slice(0, 200)}\nstderr: ${stderr}`);
        }
      });
    const ofType = <T>(type: string) => lines.filter((l) => l.type === type) as T[];
    const summary = ofType<Run['summary']>('demo_summary');
    const start = ofType<Run['start']>('demo_start');
    if (summary.length !== 1 || start.length !== 1)
      throw new Error(`expected one demo_start and one demo_summary (exit ${exitCode})\nstderr: ${stderr}`);
    run = {
      exitCode,
      stdout,
      stderr,
      start: start[0]!,
      summary: summary[0]!,
      decisions: ofType<DecisionEvent>('decision'),
      breakers: ofType<BreakerEvent>('breaker'),
      outcomes: ofType<AgentOutcomeLine>('agent_outcome'),
      scenes: ofType<Run['scenes'][number]>('demo_scene'),
    };
  },
  (RUN_SECONDS + 60) * 1000,
);

const isSeatA = (b: BreakerEvent) => b.scope === 'seat_credit' && b.seat === 'seat-a';
const attemptOn = (d: DecisionEvent, seat: string, model?: string) =>
  d.attempts.find((a) => a.seat === seat && (model === undefined || a.model === model));

describe(`routeplane demo --no-top --json --duration ${RUN_SECONDS} --speed ${SPEED} --agents ${AGENTS}`, () => {
  it('exits 0, having cleaned up its temp dir and socket', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.start.tmp_dir).toMatch(/routeplane-demo-/);
    expect(run.start.socket.startsWith(run.start.tmp_dir)).toBe(true);
    expect(existsSync(run.start.tmp_dir)).toBe(false);
  });

  it('trips seat-a on its first 400 "credit balance is too low", as Anthropic says it', () => {
    const trip = run.breakers.find((b) => isSeatA(b) && b.action === 'tripped');
    expect(trip).toBeDefined();
    expect(trip!.signal).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(trip!.signal!.message).toContain('credit balance is too low');
    const refused = run.decisions.map((d) => attemptOn(d, 'seat-a')).find((a) => a?.status === 400);
    expect(refused).toMatchObject({ outcome: 'http_4xx', evidence: 'credit' });
  });

  it('fails a probe while seat-a is still out of credit, doubling the cooldown', () => {
    const failed = run.breakers.find((b) => isSeatA(b) && b.action === 'probe_failed');
    expect(failed, 'a probe_failed event for seat-a').toBeDefined();
    const before = run.breakers
      .filter((b) => isSeatA(b) && b.seq < failed!.seq && (b.action === 'tripped' || b.action === 'probe_failed'))
      .at(-1);
    expect(before?.cooldown_ms).toBeGreaterThan(0);
    expect(failed!.cooldown_ms).toBe(before!.cooldown_ms! * 2);
    expect(failed!.failed_probes).toBe(1);
    expect(run.breakers.some((b) => isSeatA(b) && b.action === 'probe_claimed' && b.seq < failed!.seq)).toBe(true);
    // the request that carried the probe tried seat-a, got its 400, and moved on
    expect(
      run.decisions.some((d) => d.chain.some((c) => c.seat === 'seat-a' && c.state === 'probe') && attemptOn(d, 'seat-a')?.status === 400),
    ).toBe(true);
  });

  it('clears seat-a once it is topped up: by a probe that succeeds, or a fail-open request served by it', () => {
    const failed = run.breakers.find((b) => isSeatA(b) && b.action === 'probe_failed')!;
    const cleared = run.breakers.find((b) => isSeatA(b) && b.action === 'cleared' && b.seq > failed.seq);
    expect(cleared, 'seat-a cleared after its failed probe').toBeDefined();
    // nothing cleared it between the failed probe and the clearing one
    expect(run.breakers.filter((b) => isSeatA(b) && b.action === 'cleared' && b.seq > failed.seq && b.seq < cleared!.seq)).toEqual([]);
    // seat-a served the request that cleared it: its probe, or (when a slow machine lets seat-b trip
    // first) a request that failed open onto it — a fail-open success clears what a success clears
    const clearing = run.decisions.find(
      (d) =>
        attemptOn(d, 'seat-a')?.outcome === 'ok' &&
        (d.chain.some((c) => c.seat === 'seat-a' && c.state === 'probe') || d.fail_open) &&
        d.ts >= cleared!.ts,
    );
    expect(clearing, 'the decision whose seat-a attempt cleared it').toBeDefined();
    expect(clearing!.served_by).toMatch(/^seat-a\//);
    expect(cleared!.reason).toMatch(/probe|success/);
  });

  it('deprioritizes seat-b on 429 until its Retry-After passes, without any probe', () => {
    const isSeatB = (b: BreakerEvent) => b.scope === 'seat_rate_limit' && b.seat === 'seat-b';
    const trip = run.breakers.find((b) => isSeatB(b) && b.action === 'tripped');
    expect(trip, 'seat-b rate-limited').toBeDefined();
    expect(trip!.until).toBeGreaterThan(trip!.ts);
    expect(trip!.signal).toMatchObject({ status: 429, type: 'rate_limit_error', header: expect.stringMatching(/^retry-after: /) });
    const end = run.breakers.find((b) => isSeatB(b) && b.action === 'cleared' && b.seq > trip!.seq);
    expect(end, 'the rate limit ended').toBeDefined();
    expect(end!.ts).toBeGreaterThanOrEqual(trip!.until! - 50);
    // a rate limit is never probed
    expect(run.breakers.filter((b) => b.scope === 'seat_rate_limit' && b.action.startsWith('probe'))).toEqual([]);
    // while it lasted, requests saw seat-b tripped for its rate limit
    const during = run.decisions.filter((d) => d.seq > trip!.seq && d.seq < end!.seq);
    expect(during.some((d) => d.chain.some((c) => c.seat === 'seat-b' && c.state === 'tripped' && c.reason === 'rate_limit'))).toBe(true);
    // and a request started afterwards had seat-b healthy again (a decision is stamped when it ends)
    const after = run.decisions.find((d) => d.ts - d.duration_ms > end!.ts && d.served_by?.startsWith('seat-b/') && d.status === 200);
    expect(after, 'seat-b serving after its deadline').toBeDefined();
    expect(after!.chain.find((c) => c.seat === 'seat-b')?.state).toBe('healthy');
  });

  it('trips seat-c/gpt-5 alone on its 500s while its sibling seat-c/gpt-5-mini serves', () => {
    const trip = run.breakers.find((b) => b.scope === 'model' && b.seat === 'seat-c' && b.model === 'gpt-5' && b.action === 'tripped');
    expect(trip, 'gpt-5 tripped').toBeDefined();
    expect(trip!.reason).toMatch(/3 consecutive/);
    // no other model of seat-c ever tripped (its credit, later, is the whole seat's)
    expect(run.breakers.filter((b) => b.seat === 'seat-c' && b.scope === 'model' && b.action === 'tripped' && b.model !== 'gpt-5')).toEqual(
      [],
    );
    // requests planned while gpt-5 was tripped: the sibling first and healthy, gpt-5 moved last, the sibling served
    const served = run.decisions.filter(
      (d) =>
        d.route === 'gpt' &&
        d.status === 200 &&
        d.served_by === 'seat-c/gpt-5-mini' &&
        d.chain[0]?.model === 'gpt-5-mini' &&
        d.chain[0]?.state === 'healthy' &&
        d.chain[1]?.model === 'gpt-5' &&
        d.chain[1]?.state === 'tripped' &&
        d.chain[1]?.reason === 'model_errors',
    );
    expect(served.length, 'gpt requests served by the sibling while gpt-5 was tripped').toBeGreaterThan(0);
    expect(served.every((d) => d.attempts.every((a) => a.model === 'gpt-5-mini'))).toBe(true);
  });

  it("trips a quota breaker on seat-b's spent 5h window, until the provider's reset, then one probe clears it", () => {
    const isQuota = (b: BreakerEvent) => b.key === 'quota:seat-b';
    const trip = run.breakers.find((b) => isQuota(b) && b.action === 'tripped');
    expect(trip, 'seat-b quota tripped').toBeDefined();
    expect(trip!.scope).toBe('seat_quota');
    expect(trip!.signal).toMatchObject({ status: 429, type: 'rate_limit_error' });
    expect(trip!.signal!.header).toMatch(/^anthropic-ratelimit-unified-reset: \d+$/);
    // the reset is the provider's: the phase's end (15 scenario seconds), not a cooldown; the header
    // carries whole epoch seconds, so it may land up to a second either side of the phase's end
    expect(trip!.breaker!.reset_at).not.toBeNull();
    const wait = trip!.breaker!.until! - trip!.ts;
    const phaseMs = 15_000 / SPEED;
    expect(wait).toBeGreaterThan(phaseMs - 1_000);
    expect(wait).toBeLessThan(phaseMs + 1_500);
    const ready = run.breakers.find((b) => isQuota(b) && b.action === 'probe_ready' && b.seq > trip!.seq);
    const cleared = run.breakers.find((b) => isQuota(b) && b.action === 'cleared' && b.seq > trip!.seq);
    expect(ready, 'probe-ready once the reset passed').toBeDefined();
    expect(cleared, 'cleared by a probe').toBeDefined();
    expect(ready!.seq).toBeLessThan(cleared!.seq);
  });

  it("passes the agents' own Claude login through to seat-b, and moves its work to seat-a's API key once the plan's window is spent", () => {
    // seat-b accepts the agents' login and nothing else: every answer it served proves the login arrived as sent
    const servedByLogin = run.decisions.filter((d) => d.served_by?.startsWith('seat-b/') && d.status === 200);
    expect(servedByLogin.length, 'requests the Claude login served').toBeGreaterThan(0);
    // no seat ever refused a credential: the login never reached a key seat, no key reached the login
    const refused = run.decisions.flatMap((d) => d.attempts).filter((a) => a.status === 401 || a.status === 403);
    expect(refused).toEqual([]);
    // every agent carried its login, so the login seat was never skipped for want of one
    expect(run.decisions.some((d) => d.chain.some((c) => c.reason === 'no_credentials'))).toBe(false);
    const trip = run.breakers.find((b) => b.key === 'quota:seat-b' && b.action === 'tripped');
    expect(trip, 'the login seat tripped its quota').toBeDefined();
    // the request whose answer tripped it went on to the API key and was served there
    const failover = run.decisions.find(
      (d) =>
        d.route === 'sonnet' &&
        d.attempts[0]?.seat === 'seat-b' &&
        d.attempts[0]?.evidence === 'quota' &&
        d.served_by === 'seat-a/claude-sonnet-5' &&
        d.status === 200,
    );
    expect(failover, 'a sonnet request that failed over from the spent login to seat-a').toBeDefined();
    // while the window was spent, sonnet went straight to the API key
    const straight = run.decisions.filter(
      (d) =>
        d.route === 'sonnet' &&
        d.chain[0]?.seat === 'seat-a' &&
        d.chain.some((c) => c.seat === 'seat-b' && c.state === 'tripped' && c.reason === 'quota') &&
        d.served_by === 'seat-a/claude-sonnet-5',
    );
    expect(straight.length, 'sonnet requests sent to the API key while the login was held').toBeGreaterThan(0);
  });

  it('reads an OpenAI 429 insufficient_quota as out of credit, not a rate limit', () => {
    const trip = run.breakers.find((b) => b.scope === 'seat_credit' && b.seat === 'seat-c' && b.action === 'tripped');
    expect(trip, 'seat-c credit tripped').toBeDefined();
    expect(trip!.signal).toMatchObject({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota' });
    // while it lasted, seat-c was held for credit, not rate-limited
    expect(run.breakers.some((b) => b.scope === 'seat_rate_limit' && b.seat === 'seat-c')).toBe(false);
  });

  it('trips seat-b/claude-sonnet-5 alone on 529 overloaded_error', () => {
    const trip = run.breakers.find(
      (b) => b.scope === 'model' && b.seat === 'seat-b' && b.model === 'claude-sonnet-5' && b.action === 'tripped',
    );
    // what seat-b went through, in real seconds from the start, if it did not trip
    const story = () =>
      run.breakers
        .filter((b) => b.seat === 'seat-b' && b.action !== 'refused' && b.action !== 'extended')
        .map((b) => `${((b.ts - run.start.started_at) / 1000).toFixed(2)} ${b.action} ${b.key}`)
        .join('; ');
    expect(trip, `seat-b/claude-sonnet-5 tripped (seat-b: ${story()})`).toBeDefined();
    expect(trip!.signal).toMatchObject({ status: 529, type: 'overloaded_error' });
    const overloaded = run.decisions.flatMap((d) => d.attempts).find((a) => a.status === 529);
    expect(overloaded).toMatchObject({ seat: 'seat-b', model: 'claude-sonnet-5', evidence: 'model_error' });
  });

  it('fails open when every target of a route is tripped', () => {
    const open = run.decisions.filter((d) => d.fail_open);
    expect(open.length).toBeGreaterThan(0);
    const example = open.find((d) => d.route === 'sonnet');
    expect(example, 'a fail-open sonnet request').toBeDefined();
    expect(example!.chain.every((c) => c.state === 'tripped')).toBe(true);
    // configured order, as if influence were off
    expect(example!.chain.map((c) => c.seat)).toEqual(['seat-b', 'seat-a']);
    expect(example!.attempts[0]?.seat).toBe('seat-b');
  });

  it('tells the story in scenes, never more than 10 scenario seconds apart, and says when it starts again', () => {
    const scenes = run.scenes;
    expect(scenes.length).toBeGreaterThanOrEqual(10);
    expect(scenes[0]).toMatchObject({ loop: 1, index: 1 });
    expect(scenes.map((s) => s.index).slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(scenes.some((s) => s.loop === 2 && s.index === 1)).toBe(true);
    for (let i = 1; i < scenes.length; i += 1) {
      const apart = ((scenes[i]!.ts - scenes[i - 1]!.ts) / 1000) * SPEED;
      // the scene poll adds at most a fifth of a real second
      expect(apart).toBeLessThanOrEqual(10 + 0.2 * SPEED + 0.5);
    }
  });

  it('gives every simulated agent request exactly one response, and each its one decision', () => {
    const s = run.summary;
    expect(s.requests_sent).toBeGreaterThan(50);
    expect(s.responses_received).toBe(s.requests_sent);
    expect(s.transport_errors).toBe(0);
    expect(s.aborted).toBe(0);
    expect(s.missing_decisions).toBe(0);
    expect(run.outcomes).toHaveLength(s.requests_sent);
    expect(run.outcomes.every((o) => o.kind === 'response')).toBe(true);
    const ids = run.outcomes.map((o) => o.request_id);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // one decision per response, and no decision without an agent response
    expect(run.decisions.map((d) => d.request_id).sort()).toEqual([...(ids as string[])].sort());
    // what each agent was told matches what the daemon decided
    const byId = new Map(run.decisions.map((d) => [d.request_id, d]));
    for (const o of run.outcomes) {
      const d = byId.get(o.request_id!)!;
      expect({ status: o.status, served_by: o.served_by }).toEqual({ status: d.status, served_by: d.served_by });
    }
    // a 2xx body was always read whole
    expect(run.outcomes.filter((o) => o.status === 200 && o.completion !== 'complete')).toEqual([]);
  });

  it("never prints a seat key or the agents' login", () => {
    expect(run.stdout + run.stderr).not.toMatch(/sk-(ant-)?demo-|sk-ant-oat01-demo-/);
  });
});
