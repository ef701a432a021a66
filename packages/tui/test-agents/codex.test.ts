/**
 * Real Codex (the pinned version, `codex exec`) in front of `routeplane
 * serve`, configured with the README's config.toml, over fake OpenAI seats
 * that answer as the Responses API does — and, for the fail-over checks, a
 * seat that refuses every request the way an exhausted account does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Behaviour, respond } from '../../daemon/test/helpers/fake-upstream.js';
import { openai } from '../../daemon/test/signals/fixtures.js';
import { CODEX_VERSION } from './support/agents.js';
import { perTest } from './support/per-test.js';
import { readmeAgents } from './support/readme-agents.js';
import { bringUp, routeOf, type Setup, targetsOf } from './support/readme-setup.js';
import { RESPONSES_USAGE, responsesSeat } from './support/responses-seat.js';
import { sessionTag } from './support/rendezvous.js';
import { agentPlace, runCodex } from './support/run-agent.js';
import type { LoggedDecision } from './support/serve.js';

const FINAL_TEXT = 'Routeplane answered through the gpt route.';
const README_PORT_URL = 'http://127.0.0.1:4141';

const readme = readmeAgents();

/** Keeps Codex from calling home (update check, analytics, plugin catalogues): top-level keys first, tables after. */
const OFFLINE_HEAD = 'check_for_update_on_startup = false\n';
const OFFLINE_TAIL = '\n[analytics]\nenabled = false\n\n[features]\nplugins = false\napps = false\n';

const { cleanups, outside } = perTest();

/** `codex exec` with the README's config.toml, pointed at the daemon. */
async function codex(setup: Setup) {
  if (!readme.codexToml.includes(README_PORT_URL)) throw new Error(`the README's Codex config does not name ${README_PORT_URL}`);
  const place = agentPlace();
  cleanups.push(place.remove);
  const codexHome = join(place.dir, 'codex');
  mkdirSync(codexHome);
  writeFileSync(
    join(codexHome, 'config.toml'),
    OFFLINE_HEAD + readme.codexToml.replaceAll(README_PORT_URL, setup.daemon.url) + OFFLINE_TAIL,
  );
  return runCodex({ codexHome, outside: outside.env, home: place.home, work: place.work, prompt: 'Say which route answered.' });
}

function answerOf(run: Awaited<ReturnType<typeof codex>>): string | undefined {
  return run.events.find((e) => e.type === 'item.completed' && e.item?.type === 'agent_message')?.item?.text;
}

async function decisionsAfter(setup: Setup, count: number): Promise<LoggedDecision[]> {
  await expect.poll(() => setup.daemon.decisions().length).toBeGreaterThanOrEqual(count);
  return setup.daemon.decisions();
}

describe('Codex through the README config', () => {
  it('completes a turn on the gpt route', async () => {
    const setup = await bringUp(readme.config, (seat) =>
      seat.provider === 'openai' ? responsesSeat(FINAL_TEXT) : respond.anthropicMessage(),
    );
    cleanups.push(() => setup.close());
    const [target] = targetsOf(routeOf(readme.config, 'gpt')) as [string];
    const seatId = target.split('/')[0]!;

    const run = await codex(setup);

    expect(run.code, run.stderr).toBe(0);
    expect(answerOf(run)).toBe(FINAL_TEXT);
    expect(run.events.find((e) => e.type === 'turn.completed')).toBeDefined();
    const upstream = setup.upstreams.get(seatId)!;
    expect(upstream.requests.length).toBeGreaterThanOrEqual(1);
    const sent = upstream.requests[0]!;
    expect(sent.url).toBe('/v1/responses');
    expect(sent.headers.authorization).toBe(`Bearer ${setup.keys.get(seatId)}`);
    expect(sent.json).toMatchObject({ model: target.split('/')[1], stream: true });
    const codexSession = String(sent.headers['session-id']);

    const [decision] = await decisionsAfter(setup, 1);
    process.stdout.write(
      `codex: asked for ${decision!.requested} → ${decision!.route}; client ${decision!.client}; session-id ${codexSession}; served by ${decision!.served_by}\n`,
    );
    expect(decision).toMatchObject({
      requested: 'gpt',
      route: 'gpt',
      served_by: target,
      status: 200,
      session: sessionTag(codexSession),
      usage: { input_tokens: RESPONSES_USAGE.input_tokens, output_tokens: RESPONSES_USAGE.output_tokens },
    });
    expect(decision!.client).toBe(`codex_exec/${CODEX_VERSION}`);
    expect(outside.attempts).toEqual([]);
  });
});

describe('Codex while a seat is exhausted', () => {
  const twoSeats = {
    seats: [
      { id: 'plus-1', provider: 'openai', base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_KEY_1' },
      { id: 'plus-2', provider: 'openai', base_url: 'https://api.openai.com/v1', api_key_env: 'OPENAI_KEY_2' },
    ],
    routes: [
      {
        model: 'gpt',
        chain: [
          { seat: 'plus-1', model: 'gpt-5' },
          { seat: 'plus-2', model: 'gpt-5' },
        ],
      },
    ],
    influence: { enabled: true },
  };

  const exhausted: Array<{ what: string; answer: () => Behaviour; evidence: string }> = [
    {
      what: 'an API account out of quota (429 insufficient_quota)',
      answer: () => respond.json(429, JSON.parse(openai.insufficientQuota)),
      evidence: 'credit',
    },
    {
      what: 'a ChatGPT plan at its usage limit (429 usage_limit_reached)',
      // the recorded answer's reset, moved to three hours from now: a reset already past would hold the seat for a second only
      answer: () =>
        respond.json(429, { error: { ...JSON.parse(openai.codexUsageLimit).error, resets_at: Math.floor(Date.now() / 1000) + 3 * 3600 } }),
      evidence: 'quota',
    },
  ];

  for (const { what, answer, evidence } of exhausted) {
    it(`completes on the other seat when the first is ${what}, and the next turn goes straight there`, async () => {
      const setup = await bringUp(twoSeats, (seat) => (seat.id === 'plus-1' ? answer() : responsesSeat(FINAL_TEXT)));
      cleanups.push(() => setup.close());

      const first = await codex(setup);
      expect(first.code, first.stderr).toBe(0);
      expect(answerOf(first)).toBe(FINAL_TEXT);
      const [failover] = await decisionsAfter(setup, 1);
      expect(failover!.attempts.map((a) => [`${a.seat}/${a.model}`, a.status, a.evidence])).toEqual([
        ['plus-1/gpt-5', 429, evidence],
        ['plus-2/gpt-5', 200, 'ok'],
      ]);
      expect(failover).toMatchObject({ served_by: 'plus-2/gpt-5', status: 200 });

      const second = await codex(setup);
      expect(second.code, second.stderr).toBe(0);
      expect(answerOf(second)).toBe(FINAL_TEXT);
      const [, next] = await decisionsAfter(setup, 2);
      expect(next!.attempts.map((a) => a.seat)).toEqual(['plus-2']);
      expect(next!.chain.map((entry) => [entry.seat, entry.state, entry.reason])).toEqual([
        ['plus-2', 'healthy', null],
        ['plus-1', 'tripped', evidence],
      ]);
      expect(setup.upstreams.get('plus-1')!.requests).toHaveLength(1);
      expect(outside.attempts).toEqual([]);
    });
  }
});
