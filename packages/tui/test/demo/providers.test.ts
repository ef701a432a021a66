import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { ScenarioClock } from '../../src/demo/clock.js';
import { parseScenario } from '../../src/demo/scenario/load.js';
import type { Scenario } from '../../src/demo/scenario/schema.js';
import { startSimulatedSeat, type SimulatedSeat } from '../../src/demo/providers/server.js';
import { judgeBody, parseSse } from '../../src/demo/agents/consume.js';

// Real HTTP servers on 127.0.0.1, spoken to by the official SDKs: if the wire
// format were off, the SDKs would fail to parse it.

const SCENARIO = `
pacing:
  first_token_secs: [0.005, 0.01]
  token_secs: [0.001, 0.002]
  reply_tokens: [5, 12]
  error_secs: [0, 0]
seats:
  - id: seat-a
    provider: anthropic
    models: [claude-sonnet-4-5, claude-haiku-4-5]
    timeline:
      - { phase: credit_out, from: 10, to: 20 }
      - { phase: rate_limited, from: 30, to: 36 }
      - { phase: server_error, model: claude-haiku-4-5, from: 40, to: 50, status: 529 }
  - id: seat-c
    provider: openai
    models: [gpt-4o, gpt-4o-mini]
    timeline:
      - { phase: credit_out, from: 10, to: 20 }
      - { phase: rate_limited, from: 30, to: 36 }
      - { phase: server_error, model: gpt-4o, from: 40, to: 50 }
routes:
  - model: sonnet
    chain: [seat-a/claude-sonnet-4-5]
`;

const ANTHROPIC_KEY = 'sk-ant-demo-test-key';
const OPENAI_KEY = 'sk-demo-test-key';

let scenario: Scenario;
/** scenario time is driven by hand: `at(t)` puts every seat at second t */
let fakeNow = 0;
const at = (t: number) => {
  fakeNow = t * 1000;
};
let anthropicSeat: SimulatedSeat;
let openaiSeat: SimulatedSeat;
let fastSeat: SimulatedSeat;

beforeAll(async () => {
  const parsed = parseScenario(SCENARIO, 'test.yaml');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  scenario = parsed.scenario;
  const clock = new ScenarioClock(1, () => fakeNow);
  const common = { clock, pacing: scenario.pacing, repeatEvery: null, seed: 1 };
  anthropicSeat = await startSimulatedSeat({ ...common, seat: scenario.seats[0]!, key: ANTHROPIC_KEY });
  openaiSeat = await startSimulatedSeat({ ...common, seat: scenario.seats[1]!, key: OPENAI_KEY });
  // the same anthropic seat played four times faster: Retry-After is scaled too
  fastSeat = await startSimulatedSeat({
    ...common,
    clock: new ScenarioClock(4, () => fakeNow),
    seat: scenario.seats[0]!,
    key: ANTHROPIC_KEY,
  });
});

afterAll(async () => {
  await Promise.all([anthropicSeat?.close(), openaiSeat?.close(), fastSeat?.close()]);
});

function anthropic(seat = anthropicSeat, apiKey = ANTHROPIC_KEY): Anthropic {
  return new Anthropic({ apiKey, baseURL: seat.baseUrl, maxRetries: 0 });
}

function openai(apiKey = OPENAI_KEY): OpenAI {
  return new OpenAI({ apiKey, baseURL: openaiSeat.baseUrl, maxRetries: 0 });
}

async function rejection(promise: Promise<unknown>): Promise<{ status: number; error: unknown; headers: Headers }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof Anthropic.APIError || err instanceof OpenAI.APIError) {
      return { status: err.status as number, error: err.error, headers: err.headers as Headers };
    }
    throw err;
  }
  throw new Error('expected the request to fail');
}

const question = [{ role: 'user' as const, content: 'Fix the failing test' }];

describe('simulated Anthropic seat', () => {
  it('answers a message as JSON, in the model asked for', async () => {
    at(1);
    const msg = await anthropic().messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: question });
    expect(msg.model).toBe('claude-sonnet-4-5');
    expect(msg.stop_reason).toBe('end_turn');
    const block = msg.content[0];
    expect(block?.type).toBe('text');
    const words = block?.type === 'text' ? block.text.trim().split(/\s+/) : [];
    expect(words.length).toBe(msg.usage.output_tokens);
    expect(msg.usage.output_tokens).toBeGreaterThanOrEqual(5);
  });

  it('streams message_start … content_block_delta … message_stop that the SDK assembles', async () => {
    at(2);
    const stream = anthropic().messages.stream({ model: 'claude-haiku-4-5', max_tokens: 100, messages: question });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const final = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(0);
    expect(final.content[0]?.type === 'text' && final.content[0].text).toBe(deltas.join(''));
    expect(final.usage.output_tokens).toBeGreaterThanOrEqual(5);
  });

  it('caps the reply at max_tokens', async () => {
    at(3);
    const msg = await anthropic().messages.create({ model: 'claude-sonnet-4-5', max_tokens: 2, messages: question });
    expect(msg.usage.output_tokens).toBe(2);
  });

  it('answers 402 billing_error while out of credit, for every model', async () => {
    at(12);
    for (const model of ['claude-sonnet-4-5', 'claude-haiku-4-5']) {
      const { status, error } = await rejection(anthropic().messages.create({ model, max_tokens: 10, messages: question }));
      expect(status).toBe(402);
      expect(error).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
    }
    at(20);
    await expect(anthropic().messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: question })).resolves.toBeTruthy();
  });

  it('answers 429 with Retry-After = seconds left in the phase, scaled by speed', async () => {
    at(31);
    const slow = await rejection(anthropic().messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: question }));
    expect(slow.status).toBe(429);
    expect(slow.error).toMatchObject({ error: { type: 'rate_limit_error' } });
    expect(slow.headers.get('retry-after')).toBe('5');
    // at speed 4, real second 31/4 is scenario second 31: 5 scenario seconds left = 1.25 real seconds
    at(31 / 4);
    const fast = await rejection(anthropic(fastSeat).messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: question }));
    expect(fast.headers.get('retry-after')).toBe('1.25');
  });

  it('throws 5xx for one model while its sibling on the same seat answers', async () => {
    at(41);
    const { status, error } = await rejection(
      anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 10, messages: question }),
    );
    expect(status).toBe(529);
    expect(error).toMatchObject({ error: { type: 'overloaded_error' } });
    await expect(anthropic().messages.create({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: question })).resolves.toBeTruthy();
  });

  it('refuses a wrong key with 401 without echoing it', async () => {
    at(1);
    const res = await fetch(`${anthropicSeat.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-ant-someone-elses-key', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: question }),
    });
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(text).not.toContain('someone-elses');
  });

  it('insists on anthropic-version and on a model it serves', async () => {
    at(1);
    const noVersion = await fetch(`${anthropicSeat.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': ANTHROPIC_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: question }),
    });
    expect(noVersion.status).toBe(400);
    await noVersion.text();
    const { status } = await rejection(anthropic().messages.create({ model: 'sonnet', max_tokens: 10, messages: question }));
    expect(status).toBe(404);
  });
});

describe('simulated OpenAI seat', () => {
  it('lives under a base URL ending in /v1, like api.openai.com', () => {
    expect(openaiSeat.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('answers a chat completion as JSON', async () => {
    at(1);
    const done = await openai().chat.completions.create({ model: 'gpt-4o', messages: question });
    expect(done.object).toBe('chat.completion');
    expect(done.model).toBe('gpt-4o');
    expect(done.choices[0]?.finish_reason).toBe('stop');
    expect(done.choices[0]?.message.content?.trim().split(/\s+/).length).toBe(done.usage?.completion_tokens);
  });

  it('streams data: chunks ending in [DONE], with usage when asked', async () => {
    at(2);
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: question,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: number | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage?.completion_tokens ?? usage;
    }
    expect(finish).toBe('stop');
    expect(text.trim().split(/\s+/).length).toBe(usage);
  });

  it('answers 402 insufficient_quota, then 429 with retry-after and retry-after-ms', async () => {
    at(15);
    const credit = await rejection(openai().chat.completions.create({ model: 'gpt-4o', messages: question }));
    expect(credit.status).toBe(402);
    expect(credit.error).toMatchObject({ code: 'insufficient_quota' });
    at(33.5);
    const limited = await rejection(openai().chat.completions.create({ model: 'gpt-4o-mini', messages: question }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2.5');
    expect(limited.headers.get('retry-after-ms')).toBe('2500');
  });

  it('throws 500 for gpt-4o only', async () => {
    at(45);
    const { status } = await rejection(openai().chat.completions.create({ model: 'gpt-4o', messages: question }));
    expect(status).toBe(500);
    await expect(openai().chat.completions.create({ model: 'gpt-4o-mini', messages: question })).resolves.toBeTruthy();
  });

  it('refuses a wrong bearer token with 401', async () => {
    at(1);
    const { status, error } = await rejection(openai('sk-wrong').chat.completions.create({ model: 'gpt-4o', messages: question }));
    expect(status).toBe(401);
    expect(JSON.stringify(error)).not.toContain('sk-wrong');
  });

  it('counts what it answered by status', () => {
    expect(openaiSeat.answered.get(200)).toBeGreaterThanOrEqual(3);
    expect(openaiSeat.answered.get(402)).toBe(1);
    expect(openaiSeat.answered.get(500)).toBe(1);
  });
});

describe('reading a body the way an agent does', () => {
  it('judges whole streams complete and cut ones truncated', () => {
    const anthropicStream = 'event: message_start\ndata: {}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';
    expect(judgeBody('anthropic', 200, true, anthropicStream)).toBe('complete');
    expect(judgeBody('anthropic', 200, true, anthropicStream.slice(0, 30))).toBe('truncated');
    expect(judgeBody('anthropic', 200, true, 'event: message_start\ndata: {}\n\nevent: error\ndata: {"type":"error"}\n\n')).toBe(
      'stream_error',
    );
    expect(judgeBody('openai', 200, true, 'data: {"choices":[]}\n\ndata: [DONE]\n\n')).toBe('complete');
    expect(judgeBody('openai', 200, true, 'data: {"choices":[]}\n\ndata: {"error":{"message":"x"}}\n\n')).toBe('stream_error');
    expect(judgeBody('openai', 200, false, '{"id":')).toBe('truncated');
    expect(judgeBody('openai', 429, false, '{}')).toBe('error_status');
  });

  it('splits SSE frames across CRLF and multi-line data', () => {
    expect(parseSse('event: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata: [DONE]\n\n')).toEqual([
      { event: 'a', data: '1\n2' },
      { event: null, data: '[DONE]' },
    ]);
  });
});
