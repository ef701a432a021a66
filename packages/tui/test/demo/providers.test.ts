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
    models: [claude-sonnet-5, claude-haiku-4-5]
    usage:
      window: 5h
      points: [[0, 0.5], [60, 1.01]]
      resets_at: 70
    timeline:
      - { phase: credit_out, from: 10, to: 20 }
      - { phase: rate_limited, from: 30, to: 36 }
      - { phase: server_error, model: claude-haiku-4-5, from: 40, to: 50, status: 529 }
      - { phase: quota_out, from: 60, to: 70 }
  - id: seat-c
    provider: openai
    models: [gpt-5, gpt-5-mini]
    usage:
      points: [[0, 0.2]]
      resets_at: 100
    timeline:
      - { phase: credit_out, from: 10, to: 20 }
      - { phase: rate_limited, from: 30, to: 36 }
      - { phase: server_error, model: gpt-5, from: 40, to: 50 }
      - { phase: quota_out, from: 60, to: 70 }
routes:
  - model: sonnet
    chain: [seat-a/claude-sonnet-5]
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
    const msg = await anthropic().messages.create({ model: 'claude-sonnet-5', max_tokens: 100, messages: question });
    expect(msg.model).toBe('claude-sonnet-5');
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
    const msg = await anthropic().messages.create({ model: 'claude-sonnet-5', max_tokens: 2, messages: question });
    expect(msg.usage.output_tokens).toBe(2);
  });

  it('answers 400 "credit balance is too low" while out of credit, for every model, as Anthropic does', async () => {
    at(12);
    for (const model of ['claude-sonnet-5', 'claude-haiku-4-5']) {
      const { status, error } = await rejection(anthropic().messages.create({ model, max_tokens: 10, messages: question }));
      expect(status).toBe(400);
      expect(error).toMatchObject({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message:
            'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
        },
        request_id: expect.stringMatching(/^req_/),
      });
    }
    at(20);
    await expect(anthropic().messages.create({ model: 'claude-sonnet-5', max_tokens: 10, messages: question })).resolves.toBeTruthy();
  });

  it('answers 429 with Retry-After = seconds left in the phase, scaled by speed', async () => {
    at(31);
    const slow = await rejection(anthropic().messages.create({ model: 'claude-sonnet-5', max_tokens: 10, messages: question }));
    expect(slow.status).toBe(429);
    expect(slow.error).toMatchObject({ error: { type: 'rate_limit_error' } });
    expect(slow.headers.get('retry-after')).toBe('5');
    // at speed 4, real second 31/4 is scenario second 31: 5 scenario seconds left = 1.25 real seconds
    at(31 / 4);
    const fast = await rejection(anthropic(fastSeat).messages.create({ model: 'claude-sonnet-5', max_tokens: 10, messages: question }));
    expect(fast.headers.get('retry-after')).toBe('1.25');
  });

  it('throws 5xx for one model while its sibling on the same seat answers', async () => {
    at(41);
    const { status, error } = await rejection(
      anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 10, messages: question }),
    );
    expect(status).toBe(529);
    expect(error).toMatchObject({ error: { type: 'overloaded_error' } });
    await expect(anthropic().messages.create({ model: 'claude-sonnet-5', max_tokens: 10, messages: question })).resolves.toBeTruthy();
  });

  it('sends the unified usage headers on every answer, and a spent window as 429 rejected with its reset', async () => {
    at(27);
    const { response } = await anthropic().messages.create({ model: 'claude-sonnet-5', max_tokens: 10, messages: question }).withResponse();
    // 0.5 at 0 → 1.01 at 60, linear: 0.7295 at 27
    expect(response.headers.get('anthropic-ratelimit-unified-5h-utilization')).toBe('0.73');
    expect(response.headers.get('anthropic-ratelimit-unified-5h-status')).toBe('allowed');
    const reset = Number(response.headers.get('anthropic-ratelimit-unified-5h-reset'));
    // the window resets at scenario second 70: 43 seconds after now
    expect(reset - Date.now() / 1000).toBeGreaterThan(41);
    expect(reset - Date.now() / 1000).toBeLessThan(45);
    at(62);
    const spent = await rejection(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 10, messages: question }));
    expect(spent.status).toBe(429);
    expect(spent.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(spent.headers.get('anthropic-ratelimit-unified-status')).toBe('rejected');
    expect(spent.headers.get('anthropic-ratelimit-unified-representative-claim')).toBe('five_hour');
    expect(spent.headers.get('anthropic-ratelimit-unified-5h-utilization')).toBe('1.01');
    expect(spent.headers.get('retry-after')).toBeNull();
    // the reset is the phase's end, 8 scenario seconds away, in epoch seconds
    const left = Number(spent.headers.get('anthropic-ratelimit-unified-reset')) - Date.now() / 1000;
    expect(left).toBeGreaterThan(6);
    expect(left).toBeLessThan(10);
  });

  it('refuses a wrong key with 401 without echoing it', async () => {
    at(1);
    const res = await fetch(`${anthropicSeat.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-ant-someone-elses-key', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 10, messages: question }),
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
      body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 10, messages: question }),
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
    const done = await openai().chat.completions.create({ model: 'gpt-5', messages: question });
    expect(done.object).toBe('chat.completion');
    expect(done.model).toBe('gpt-5');
    expect(done.choices[0]?.finish_reason).toBe('stop');
    expect(done.choices[0]?.message.content?.trim().split(/\s+/).length).toBe(done.usage?.completion_tokens);
  });

  it('streams data: chunks ending in [DONE], with usage when asked', async () => {
    at(2);
    const stream = await openai().chat.completions.create({
      model: 'gpt-5-mini',
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

  it('answers 429 insufficient_quota out of credit, then 429 rate_limit_exceeded with retry-after and retry-after-ms', async () => {
    at(15);
    const credit = await rejection(openai().chat.completions.create({ model: 'gpt-5', messages: question }));
    expect(credit.status).toBe(429);
    expect(credit.error).toEqual({
      message:
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      type: 'insufficient_quota',
      param: null,
      code: 'insufficient_quota',
    });
    at(33.5);
    const limited = await rejection(openai().chat.completions.create({ model: 'gpt-5-mini', messages: question }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2.5');
    expect(limited.headers.get('retry-after-ms')).toBe('2500');
    expect(limited.error).toMatchObject({ code: 'rate_limit_exceeded' });
  });

  it('reports its request window on every answer, and a spent subscription as Codex does', async () => {
    at(5);
    const { response } = await openai().chat.completions.create({ model: 'gpt-5', messages: question }).withResponse();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('5000');
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('4000');
    expect(response.headers.get('x-ratelimit-reset-requests')).toBe('1m35s');
    at(65);
    const spent = await rejection(openai().chat.completions.create({ model: 'gpt-5-mini', messages: question }));
    expect(spent.status).toBe(429);
    expect(spent.error).toMatchObject({ type: 'usage_limit_reached', resets_in_seconds: 5 });
    const resetsAt = (spent.error as { resets_at: number }).resets_at;
    expect(resetsAt - Date.now() / 1000).toBeGreaterThan(3);
    expect(resetsAt - Date.now() / 1000).toBeLessThan(7);
  });

  it('throws 500 for gpt-5 only', async () => {
    at(45);
    const { status } = await rejection(openai().chat.completions.create({ model: 'gpt-5', messages: question }));
    expect(status).toBe(500);
    await expect(openai().chat.completions.create({ model: 'gpt-5-mini', messages: question })).resolves.toBeTruthy();
  });

  it('refuses a wrong bearer token with 401', async () => {
    at(1);
    const { status, error } = await rejection(openai('sk-wrong').chat.completions.create({ model: 'gpt-5', messages: question }));
    expect(status).toBe(401);
    expect(JSON.stringify(error)).not.toContain('sk-wrong');
  });

  it('counts what it answered by status', () => {
    expect(openaiSeat.answered.get(200)).toBeGreaterThanOrEqual(3);
    expect(openaiSeat.answered.get(429)).toBe(3);
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
