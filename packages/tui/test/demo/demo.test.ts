import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BreakerEvent, DecisionEvent } from '@routeplane/shared';
import { requireBuiltCli, spawnCli, type CliProcess } from '../../../daemon/test/helpers/cli-process.js';

// Acceptance for `routeplane demo` (issue 5): run the built CLI as a user would
// and check, from what it prints, that every breaker signal of the default
// scenario really happened in the real daemon. The demo runs until its output
// shows the whole story has played (not for a fixed time), then gets SIGTERM
// as a service manager would send it. Needs `pnpm build` first.

const SPEED = 4;
/** The story's last signal comes at scenario second 26; this bound only ends a run that never gets there. */
const STORY_BOUND_MS = 60_000;

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
  start: { tmp_dir: string; socket: string; http_url: string };
  decisions: DecisionEvent[];
  breakers: BreakerEvent[];
  outcomes: AgentOutcomeLine[];
  summary: Record<string, unknown> & { requests_sent: number; responses_received: number };
}

let run: Run;
let demo: CliProcess | null = null;

// whatever happened, no demo is left running
afterAll(() => demo?.kill());

/**
 * Reads the demo's NDJSON as it arrives and says when every signal the tests
 * below look for has been printed: seat-a cleared by a probe after one failed,
 * seat-b's rate limit over and seat-b serving a request started after it,
 * seat-c/gpt-4o tripped, and a fail-open sonnet or haiku request.
 */
class StoryWatcher {
  private read = 0;
  private seatAProbeFailed = false;
  private seatACleared = false;
  private seatBLimitEndedAt: number | null = null;
  private seatBServedAfter = false;
  private gpt4oTripped = false;
  private failedOpen = false;

  played(stdout: string): boolean {
    const lines = stdout.split('\n').slice(0, -1);
    for (; this.read < lines.length; this.read++) {
      const line = JSON.parse(lines[this.read]!) as { type: string };
      if (line.type === 'breaker') this.breaker(line as BreakerEvent);
      else if (line.type === 'decision') this.decision(line as DecisionEvent);
    }
    return this.seatACleared && this.seatBServedAfter && this.gpt4oTripped && this.failedOpen;
  }

  private breaker(b: BreakerEvent): void {
    if (b.scope === 'seat_credit' && b.seat === 'seat-a' && b.action === 'probe_failed') this.seatAProbeFailed = true;
    if (b.scope === 'seat_credit' && b.seat === 'seat-a' && b.action === 'cleared' && this.seatAProbeFailed) this.seatACleared = true;
    if (b.scope === 'seat_rate_limit' && b.seat === 'seat-b' && b.action === 'cleared') this.seatBLimitEndedAt = b.ts;
    if (b.scope === 'model' && b.seat === 'seat-c' && b.model === 'gpt-4o' && b.action === 'tripped') this.gpt4oTripped = true;
  }

  private decision(d: DecisionEvent): void {
    if (d.fail_open && (d.route === 'sonnet' || d.route === 'haiku')) this.failedOpen = true;
    const ended = this.seatBLimitEndedAt;
    if (ended !== null && d.ts - d.duration_ms > ended && d.served_by?.startsWith('seat-b/') && d.status === 200)
      this.seatBServedAfter = true;
  }
}

beforeAll(async () => {
  requireBuiltCli();
  const started = spawnCli(['demo', '--no-top', '--json', '--speed', String(SPEED)], { ...process.env, NO_COLOR: '1' }, tmpdir());
  demo = started;
  const story = new StoryWatcher();
  await started.until((p) => story.played(p.stdout), 'every signal of the default story', STORY_BOUND_MS);
  started.child.kill('SIGTERM');
  const { code: exitCode, stdout, stderr } = await started.exited;
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
  };
}, STORY_BOUND_MS + 30_000);

const isSeatA = (b: BreakerEvent) => b.scope === 'seat_credit' && b.seat === 'seat-a';
const attemptOn = (d: DecisionEvent, seat: string, model?: string) =>
  d.attempts.find((a) => a.seat === seat && (model === undefined || a.model === model));

describe('routeplane demo --no-top --json --speed 4, stopped once the story has played', () => {
  it('exits 0, having cleaned up its temp dir and socket', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.start.tmp_dir).toMatch(/routeplane-demo-/);
    expect(run.start.socket.startsWith(run.start.tmp_dir)).toBe(true);
    expect(existsSync(run.start.tmp_dir)).toBe(false);
  });

  it('trips seat-a on its first 402', () => {
    const trip = run.breakers.find((b) => isSeatA(b) && b.action === 'tripped');
    expect(trip).toBeDefined();
    expect(trip!.reason).toContain('402');
    expect(run.decisions.some((d) => attemptOn(d, 'seat-a')?.outcome === 'http_402')).toBe(true);
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
    // the request that carried the probe tried seat-a, got 402, and moved on
    expect(
      run.decisions.some(
        (d) => d.chain.some((c) => c.seat === 'seat-a' && c.state === 'probe') && attemptOn(d, 'seat-a')?.outcome === 'http_402',
      ),
    ).toBe(true);
  });

  it('clears seat-a with a later probe that succeeds once it is topped up', () => {
    const failed = run.breakers.find((b) => isSeatA(b) && b.action === 'probe_failed')!;
    const cleared = run.breakers.find((b) => isSeatA(b) && b.action === 'cleared' && b.seq > failed.seq);
    expect(cleared, 'seat-a cleared after its failed probe').toBeDefined();
    const probe = run.decisions.find(
      (d) => d.chain.some((c) => c.seat === 'seat-a' && c.state === 'probe') && attemptOn(d, 'seat-a')?.outcome === 'ok',
    );
    expect(probe, 'a decision whose seat-a probe succeeded').toBeDefined();
    expect(probe!.served_by).toMatch(/^seat-a\//);
    // nothing cleared it between the failed probe and the successful one
    expect(run.breakers.filter((b) => isSeatA(b) && b.action === 'cleared' && b.seq > failed.seq && b.seq < cleared!.seq)).toEqual([]);
    expect(cleared!.reason).toMatch(/probe/);
  });

  it('deprioritizes seat-b on 429 until its Retry-After passes, without any probe', () => {
    const isSeatB = (b: BreakerEvent) => b.scope === 'seat_rate_limit' && b.seat === 'seat-b';
    const trip = run.breakers.find((b) => isSeatB(b) && b.action === 'tripped');
    expect(trip, 'seat-b rate-limited').toBeDefined();
    expect(trip!.until).toBeGreaterThan(trip!.ts);
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

  it('trips seat-c/gpt-4o alone while its sibling seat-c/gpt-4o-mini serves', () => {
    const trip = run.breakers.find((b) => b.scope === 'model' && b.seat === 'seat-c' && b.model === 'gpt-4o' && b.action === 'tripped');
    expect(trip, 'gpt-4o tripped').toBeDefined();
    expect(trip!.reason).toMatch(/3 consecutive/);
    // no seat-wide breaker and no other model ever tripped on seat-c
    expect(run.breakers.filter((b) => b.seat === 'seat-c' && b.action === 'tripped' && b.model !== 'gpt-4o')).toEqual([]);
    // requests planned while gpt-4o was tripped: the sibling first and healthy, gpt-4o moved last, the sibling served
    const served = run.decisions.filter(
      (d) =>
        d.route === 'gpt' &&
        d.status === 200 &&
        d.served_by === 'seat-c/gpt-4o-mini' &&
        d.chain[0]?.model === 'gpt-4o-mini' &&
        d.chain[0]?.state === 'healthy' &&
        d.chain[1]?.model === 'gpt-4o' &&
        d.chain[1]?.state === 'tripped' &&
        d.chain[1]?.reason === 'model_errors',
    );
    expect(served.length, 'gpt requests served by the sibling while gpt-4o was tripped').toBeGreaterThan(0);
    expect(served.every((d) => d.attempts.every((a) => a.model === 'gpt-4o-mini'))).toBe(true);
  });

  it('fails open when every target of a route is tripped', () => {
    const open = run.decisions.filter((d) => d.fail_open);
    expect(open.length).toBeGreaterThan(0);
    const example = open.find((d) => d.route === 'sonnet' || d.route === 'haiku');
    expect(example, 'a fail-open sonnet/haiku request').toBeDefined();
    expect(example!.chain.every((c) => c.state === 'tripped')).toBe(true);
    // configured order, as if influence were off
    expect(example!.chain.map((c) => c.seat)).toEqual(['seat-a', 'seat-b']);
    expect(example!.attempts[0]?.seat).toBe('seat-a');
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

  it('never prints a seat key', () => {
    expect(run.stdout + run.stderr).not.toMatch(/sk-(ant-)?demo-/);
  });
});
