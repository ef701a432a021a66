import { readFile } from 'node:fs/promises';
import type { DecisionEvent } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, MESSAGES, message } from '../policy-http/support.js';

/**
 * `cost` on every decision, over real HTTP: computed when the decision is
 * written, from the usage the upstream reported and the serving target's
 * price (its own, else its seat's: a target's price replaces the seat's
 * whole price), present in the event and the decision log; null without a
 * price or a target; and `balance: cost` orders priced targets by input +
 * output when they declare no `cost_per_mtok`.
 */
const SEAT_PRICE = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };

/** An Anthropic message reporting 1,000 input, 200 output, 5,000 cache read and 300 cache write tokens. */
const claudeAnswer = respond.json(200, {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5',
  content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 1_000, output_tokens: 200, cache_read_input_tokens: 5_000, cache_creation_input_tokens: 300 },
});

/** An OpenAI completion whose 40,000 prompt tokens include 30,000 cached ones. */
const gptAnswer = respond.json(200, {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-5',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 40_000, completion_tokens: 8_000, total_tokens: 48_000, prompt_tokens_details: { cached_tokens: 30_000 } },
});

const failingModels = new Set<string>();
const unlessFailing =
  (ok: Behaviour): Behaviour =>
  (req, res) =>
    failingModels.has(String(req.json?.model)) ? respond.status(500)(req, res) : ok(req, res);

let claude: FakeUpstream;
let gpt: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  claude = await startFakeUpstream(unlessFailing(claudeAnswer));
  gpt = await startFakeUpstream(unlessFailing(gptAnswer));
  t = await startTestDaemon({
    currency: 'eur',
    seats: [
      { id: 'api', provider: 'anthropic', upstream: claude, price: SEAT_PRICE },
      { id: 'spare', provider: 'anthropic', upstream: claude },
      // the agent's own login: a price written on it still prices nothing
      { id: 'login', provider: 'anthropic', upstream: claude, auth: 'passthrough', price: SEAT_PRICE },
      { id: 'gpt', provider: 'openai', upstream: gpt, price: { input: 1.25, output: 10, cache_read: 0.125 } },
      { id: 'dear', provider: 'openai', upstream: gpt, price: { input: 3, output: 15 } },
      { id: 'cheap', provider: 'openai', upstream: gpt, price: { input: 1, output: 4, cache_read: 100 } },
      { id: 'plain', provider: 'openai', upstream: gpt },
    ],
    routes: [
      { model: 'sonnet', chain: [{ seat: 'api', model: 'claude-sonnet-5' }] },
      // the target's own price replaces the seat's whole price: only output is priced here
      { model: 'own', chain: [{ seat: 'api', model: 'claude-sonnet-5', price: { output: 10 } }] },
      { model: 'unpriced', chain: [{ seat: 'spare', model: 'claude-sonnet-5' }] },
      { model: 'plan', chain: [{ seat: 'login', model: 'claude-sonnet-5' }] },
      {
        model: 'over',
        chain: [
          { seat: 'spare', model: 'failing-model' },
          { seat: 'api', model: 'claude-sonnet-5' },
        ],
      },
      { model: 'gpt', chain: [{ seat: 'gpt', model: 'gpt-5' }] },
      {
        model: 'by-cost',
        balance: 'cost',
        chain: [
          { seat: 'plain', model: 'm-plain' },
          { seat: 'dear', model: 'm-dear' },
          { seat: 'gpt', model: 'm-declared', cost_per_mtok: 10 },
          { seat: 'cheap', model: 'm-cheap' },
        ],
      },
    ],
  });
  failingModels.add('failing-model');
});

afterAll(async () => {
  await t?.close();
  await Promise.all([claude?.close(), gpt?.close()]);
});

async function loggedDecision(id: string): Promise<DecisionEvent> {
  const line = await vi.waitFor(
    async () => {
      const text = await readFile(t.decisionLogPath!, 'utf8').catch(() => '');
      const found = text.split('\n').find((l) => l.includes(`"request_id":"${id}"`));
      if (found === undefined) throw new Error(`decision ${id} not in the decision log yet`);
      return found;
    },
    { timeout: 5_000, interval: 20 },
  );
  return JSON.parse(line) as DecisionEvent;
}

describe('cost on the decision', () => {
  it("is Σ tokens × the seat's price per million, each part priced once, in the event and the decision log", async () => {
    const x = await exchange(t, MESSAGES, message('sonnet'));
    expect(x.res.status).toBe(200);
    // 1,000 × 3 + 200 × 15 + 5,000 × 0.3 + 300 × 3.75 = 8,625 per million
    expect(x.decision.cost).toBe(0.008625);
    expect((await loggedDecision(x.decision.request_id)).cost).toBe(0.008625);
  });

  it("takes a target's own price instead of its seat's, whole", async () => {
    const x = await exchange(t, MESSAGES, message('own'));
    // only output is priced by the target: 200 × 10; the seat's input and cache parts do not join in
    expect(x.decision.cost).toBe(0.002);
  });

  it('prices an OpenAI input without the cached tokens its prompt tokens include', async () => {
    const x = await exchange(t, CHAT, chat('gpt'));
    // (40,000 − 30,000) × 1.25 + 8,000 × 10 + 30,000 × 0.125
    expect(x.decision.cost).toBe(0.09625);
  });

  it("counts against the target that served after a fail-over, with that target's price", async () => {
    const x = await exchange(t, MESSAGES, message('over'));
    expect(x.decision.attempts.map((a) => a.outcome)).toEqual(['http_5xx', 'ok']);
    expect(x.decision.served_by).toBe('api/claude-sonnet-5');
    expect(x.decision.cost).toBe(0.008625);
  });

  it('is null without a price, and for a request no target answered', async () => {
    expect((await exchange(t, MESSAGES, message('unpriced'))).decision.cost).toBeNull();
    const unknown = await exchange(t, MESSAGES, message('no-such-route'));
    expect(unknown.res.status).toBe(404);
    expect(unknown.decision.cost).toBeNull();
  });

  it("is null on the agent's own login: a plan's traffic has no per-request price", async () => {
    const x = await exchange(t, MESSAGES, message('plan'), { authorization: 'Bearer sk-ant-oat01-plan-login' });
    expect(x.res.status).toBe(200);
    expect(x.decision.served_by).toBe('login/claude-sonnet-5');
    expect(x.decision.usage?.input_tokens).toBe(1_000);
    expect(x.decision.cost).toBeNull();
  });

  it('is 0 for an answer that failed on a priced target: an error reports no tokens', async () => {
    failingModels.add('claude-sonnet-5');
    try {
      const x = await exchange(t, MESSAGES, message('sonnet'));
      expect(x.res.status).toBe(500);
      expect(x.decision.served_by).toBe('api/claude-sonnet-5');
      expect(x.decision.cost).toBe(0);
    } finally {
      failingModels.delete('claude-sonnet-5');
    }
  });
});

describe('balance: cost with prices', () => {
  it('orders a priced target without cost_per_mtok by its input + output price (cache parts do not count), unpriced last', async () => {
    const x = await exchange(t, CHAT, chat('by-cost'));
    // cheap 1 + 4 = 5 (its cache_read 100 ignored), declared 10, dear 3 + 15 = 18, plain unpriced
    expect(x.decision.chain.map((e) => e.seat)).toEqual(['cheap', 'gpt', 'dear', 'plain']);
    expect(x.decision.served_by).toBe('cheap/m-cheap');
  });
});
