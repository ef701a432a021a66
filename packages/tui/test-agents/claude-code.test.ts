/**
 * Real Claude Code (the pinned version) in front of `routeplane serve`, with
 * the README's config and command line, over fake Anthropic seats that
 * answer as the Messages API does. Each session runs a short agent loop (two
 * `Read` tool rounds, then text, then a Stop prompt hook on the small/fast
 * model), so it makes several requests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './support/agents.js';
import { CREDIT_TOO_LOW, claudeCodeSeat, type ExhaustedAnswer, toolResults, windowUsedUp } from './support/anthropic-seat.js';
import { perTest } from './support/per-test.js';
import { readmeAgents } from './support/readme-agents.js';
import { bringUp, routeOf, type SeatConfig, type Setup, targetsOf } from './support/readme-setup.js';
import { responsesSeat } from './support/responses-seat.js';
import { firstTarget, sessionIdsLandingOn, sessionTag } from './support/rendezvous.js';
import { agentPlace, runClaudeCode } from './support/run-agent.js';
import type { LoggedDecision } from './support/serve.js';
import type { RecordedRequest } from '../../daemon/test/helpers/fake-upstream.js';

const FINAL_TEXT = 'Read notes.txt twice: it names the pelican.';
const TOOL_TURNS = 2;
/** requests per session: the tool rounds, the final answer, the Stop hook */
const REQUESTS_PER_SESSION = TOOL_TURNS + 2;
const CLIENT = `claude-cli/${CLAUDE_CODE_VERSION}`;

const readme = readmeAgents();
const sonnetTargets = targetsOf(routeOf(readme.config, 'sonnet'));
/** the models the README's chains name: what an upstream may be asked for */
const chainModels = new Set([...sonnetTargets, ...targetsOf(routeOf(readme.config, 'haiku'))].map((t) => t.split('/')[1]));

const { cleanups, outside } = perTest();

/** The README's config over fake seats; `options` adjusts the Anthropic seats. */
async function readmeDaemon(options: (seat: SeatConfig) => Partial<Parameters<typeof claudeCodeSeat>[0]> = () => ({})): Promise<{
  setup: Setup;
  readFile: string;
  seats: Map<string, ReturnType<typeof claudeCodeSeat>>;
}> {
  const place = agentPlace();
  cleanups.push(place.remove);
  const readFile = join(place.work, 'notes.txt');
  writeFileSync(readFile, 'The bird in this project is a pelican.\n');
  const seats = new Map<string, ReturnType<typeof claudeCodeSeat>>();
  const setup = await bringUp(readme.config, (seat) => {
    if (seat.provider === 'openai') return responsesSeat('unused by Claude Code');
    const fake = claudeCodeSeat({ readFile, toolTurns: TOOL_TURNS, finalText: FINAL_TEXT, ...options(seat) });
    seats.set(seat.id, fake);
    return fake.behaviour;
  });
  cleanups.push(() => setup.close());
  return { setup, readFile, seats };
}

/** One Claude Code session against the daemon, with the README's variables (plus `env`). */
async function claude(setup: Setup, sessionId: string, env: Record<string, string> = readme.claudeCodeEnv) {
  const place = agentPlace();
  cleanups.push(place.remove);
  writeFileSync(join(place.work, 'notes.txt'), 'The bird in this project is a pelican.\n');
  return runClaudeCode({
    env: { ...env, ANTHROPIC_BASE_URL: setup.daemon.url },
    outside: outside.env,
    home: place.home,
    work: place.work,
    sessionId,
    prompt: 'Read notes.txt and tell me which bird it names.',
  });
}

function bySession(decisions: LoggedDecision[], sessionId: string): LoggedDecision[] {
  const tag = sessionTag(sessionId);
  return decisions.filter((d) => d.session === tag);
}

function describeTraffic(what: string, decisions: LoggedDecision[]): void {
  const count = (values: Array<string | null>) =>
    [...values.reduce((m, v) => m.set(String(v), (m.get(String(v)) ?? 0) + 1), new Map<string, number>())]
      .map(([v, n]) => `${v} ×${n}`)
      .join(', ');
  process.stdout.write(
    `${what}: ${decisions.length} requests; clients ${count(decisions.map((d) => d.client))}; ` +
      `sessions ${new Set(decisions.map((d) => d.session)).size}; asked for ${count(decisions.map((d) => `${d.requested} → ${d.route}`))}; ` +
      `served by ${count(decisions.map((d) => d.served_by))}\n`,
  );
}

describe('Claude Code through the README config', () => {
  it('spreads several sessions at once over both seats, and keeps each session on one seat', async () => {
    const { setup } = await readmeDaemon();
    // three sessions that rendezvous puts on each seat: both seats get sessions by design, not by luck
    const ids = sonnetTargets.flatMap((target) => sessionIdsLandingOn(target, sonnetTargets, 3));

    const runs = await Promise.all(ids.map((id) => claude(setup, id)));

    for (const [i, run] of runs.entries()) {
      expect(run.code, `session ${ids[i]}: ${run.stderr}`).toBe(0);
      expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: FINAL_TEXT, session_id: ids[i] });
    }
    await expect.poll(() => setup.daemon.decisions().length).toBeGreaterThanOrEqual(ids.length * REQUESTS_PER_SESSION);
    const decisions = setup.daemon.decisions();
    describeTraffic('spread', decisions);

    const seatsUsed = new Set<string>();
    for (const id of ids) {
      const session = bySession(decisions, id);
      const main = session.filter((d) => d.route === 'sonnet');
      const small = session.filter((d) => d.route === 'haiku');
      expect(main, `session ${id}`).toHaveLength(TOOL_TURNS + 1);
      // the one seat rendezvous picks for this session, for every one of its main requests
      expect(new Set(main.map((d) => d.served_by)), `session ${id}`).toEqual(new Set([firstTarget(id, sonnetTargets)]));
      // Claude Code asks for its own id for "sonnet"; the README's pattern routes it
      for (const d of main) expect(d.requested).toMatch(/^claude-sonnet-/);
      // the small/fast model, named by ANTHROPIC_DEFAULT_HAIKU_MODEL
      expect(small.map((d) => d.requested)).toEqual([readme.claudeCodeEnv.ANTHROPIC_DEFAULT_HAIKU_MODEL]);
      for (const d of session) {
        expect(d).toMatchObject({ status: 200, client: CLIENT });
        expect(d.attempts).toHaveLength(1);
      }
      seatsUsed.add(main[0]!.served_by!.split('/')[0]!);
    }
    expect(seatsUsed).toEqual(new Set(sonnetTargets.map((t) => t.split('/')[0])));
    expect(decisions.filter((d) => d.session === null)).toEqual([]);

    // every seat got its own key and the target's model, never the agent's token
    for (const [seatId, upstream] of setup.upstreams) {
      for (const req of upstream.requests) {
        expect(req.headers['x-api-key']).toBe(setup.keys.get(seatId));
        expect(req.headers.authorization).toBeUndefined();
        expect(chainModels).toContain(String(req.json?.model));
        expect(ids).toContain(req.headers['x-claude-code-session-id']);
      }
    }
    expect(outside.attempts).toEqual([]);
  });

  it('routes the dated haiku id Claude Code picks by itself (an API key, no haiku variable) through the claude-haiku-* pattern', async () => {
    const { setup } = await readmeDaemon();
    const { ANTHROPIC_AUTH_TOKEN: _token, ANTHROPIC_DEFAULT_HAIKU_MODEL: _haiku, ...rest } = readme.claudeCodeEnv;
    const agentKey = 'sk-ant-api03-agent-only-7d1c0e5b9a4f';
    const id = sessionIdsLandingOn(sonnetTargets[0]!, sonnetTargets, 1)[0]!;

    const run = await claude(setup, id, { ...rest, ANTHROPIC_API_KEY: agentKey });

    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toMatchObject({ subtype: 'success', result: FINAL_TEXT });
    // this daemon serves this one session: every decision is its own (an unknown model's would carry no session)
    await expect.poll(() => setup.daemon.decisions().length).toBeGreaterThanOrEqual(REQUESTS_PER_SESSION);
    const decisions = setup.daemon.decisions();
    describeTraffic('own small/fast model', decisions);
    const small = decisions.filter((d) => d.requested?.startsWith('claude-haiku-'));
    expect(small).toHaveLength(1);
    expect(small[0]!.requested).toMatch(/^claude-haiku-\d+-\d+-\d{8}$/);
    expect(small[0]).toMatchObject({ route: 'haiku', status: 200, client: CLIENT, session: sessionTag(id) });
    // the agent's key is for the daemon alone
    for (const upstream of setup.upstreams.values()) {
      for (const req of upstream.requests) expect(JSON.stringify(req.headers)).not.toContain(agentKey);
    }
    expect(outside.attempts).toEqual([]);
  });

  const runningOut: Array<{ what: string; answer: () => ExhaustedAnswer; evidence: string }> = [
    { what: 'runs out of credit (400 "credit balance is too low")', answer: () => CREDIT_TOO_LOW, evidence: 'credit' },
    {
      what: 'uses up its subscription window (429 unified-status rejected, reset in an hour)',
      answer: () => windowUsedUp(Math.floor(Date.now() / 1000) + 3600),
      evidence: 'quota',
    },
  ];

  for (const { what, answer, evidence } of runningOut) {
    it(`finishes the work on the other seat when its seat ${what} mid-session`, async () => {
      const [emptyTarget, otherTarget] = sonnetTargets as [string, string];
      const emptySeat = emptyTarget.split('/')[0]!;
      const victim = sessionIdsLandingOn(emptyTarget, sonnetTargets, 1)[0]!;
      const bystander = sessionIdsLandingOn(otherTarget, sonnetTargets, 1)[0]!;
      // the seat runs out on the victim's second request (its first tool round already went through
      // the seat), and from then on for everyone
      const runsOutOn = (req: RecordedRequest) => req.headers['x-claude-code-session-id'] === victim && toolResults(req) >= 1;
      const { setup, seats } = await readmeDaemon((seat) => (seat.id === emptySeat ? { runsOutOn, exhausted: answer() } : {}));

      const [hit, spared] = await Promise.all([claude(setup, victim), claude(setup, bystander)]);

      expect(seats.get(emptySeat)!.ranOut()).toBe(true);
      for (const run of [hit, spared]) {
        expect(run.code, run.stderr).toBe(0);
        expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: FINAL_TEXT });
      }
      await expect.poll(() => setup.daemon.decisions().length).toBeGreaterThanOrEqual(2 * REQUESTS_PER_SESSION);
      const decisions = setup.daemon.decisions();
      describeTraffic(`seat ${evidence}`, decisions);

      const main = bySession(decisions, victim).filter((d) => d.route === 'sonnet');
      expect(main).toHaveLength(TOOL_TURNS + 1);
      const [first, failover, ...rest] = main as [LoggedDecision, LoggedDecision, ...LoggedDecision[]];
      expect(first).toMatchObject({ served_by: emptyTarget, status: 200 });
      expect(failover.attempts.map((a) => [`${a.seat}/${a.model}`, a.status, a.evidence])).toEqual([
        [emptyTarget, answer().status, evidence],
        [otherTarget, 200, 'ok'],
      ]);
      expect(failover).toMatchObject({ served_by: otherTarget, status: 200 });
      // the rest of the session stays on the seat that can serve; the empty one is tripped, tried last
      for (const d of rest) {
        expect(d).toMatchObject({ served_by: otherTarget, status: 200 });
        expect(d.attempts).toHaveLength(1);
        expect(d.chain.find((entry) => entry.seat === emptySeat)).toMatchObject({ state: 'tripped', reason: evidence });
      }
      for (const d of bySession(decisions, victim).filter((d) => d.route === 'haiku')) {
        expect(d.status).toBe(200);
        expect(d.served_by?.startsWith(`${emptySeat}/`)).toBe(false);
      }
      // the bystander, on the other seat, never noticed
      for (const d of bySession(decisions, bystander)) expect(d.status).toBe(200);
      const bystanderMain = bySession(decisions, bystander).filter((d) => d.route === 'sonnet');
      expect(bystanderMain.map((d) => d.served_by)).toEqual(Array(TOOL_TURNS + 1).fill(otherTarget));
      expect(outside.attempts).toEqual([]);
    });
  }
});
