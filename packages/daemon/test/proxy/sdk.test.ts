import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { respond } from '../helpers/fake-upstream.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';

/** The official clients, pointed at the daemon the way agents are. */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const AGENT_KEY = 'agent-own-key-never-forwarded';

function expectSeatCredentials(fx: TwoSeats, provider: 'openai' | 'anthropic'): void {
  for (const req of fx.a.requests) {
    if (provider === 'openai') expect(req.headers.authorization).toBe(`Bearer ${fx.t.keys.a}`);
    else expect(req.headers['x-api-key']).toBe(fx.t.keys.a);
    expect(JSON.stringify(req.headers)).not.toContain(AGENT_KEY);
  }
}

describe('openai client through the daemon', () => {
  const client = (fx: TwoSeats) => new OpenAI({ apiKey: AGENT_KEY, baseURL: `${fx.t.url}/v1`, maxRetries: 0 });

  it('non-streaming chat completion', async () => {
    fx = await startTwoSeats({ provider: 'openai' });
    const completion = await client(fx).chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]!.message.content).toBe('hello from model-a');
    expect(fx.a.requests[0]!.json.model).toBe('model-a');
    expectSeatCredentials(fx, 'openai');
  });

  it('streaming chat completion, after a fail-over', async () => {
    fx = await startTwoSeats({ provider: 'openai', behaviourA: respond.status(500) });
    const stream = await client(fx).chat.completions.create({ model: 'gpt', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ stream: true, served_by: 'b/model-b' });
  });

  it('sees a daemon error as a typed API error', async () => {
    fx = await startTwoSeats({ provider: 'openai' });
    const err = await client(fx)
      .chat.completions.create({ model: 'nope', messages: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).message).toContain('"gpt"');
  });

  it('surfaces a mid-stream failure as an error from the iterator', async () => {
    fx = await startTwoSeats({
      provider: 'openai',
      behaviourA: respond.resetMidBody(
        'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"he"},"finish_reason":null}]}\n\n',
      ),
    });
    const stream = await client(fx).chat.completions.create({ model: 'gpt', stream: true, messages: [] });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta?.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['he']);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(String((err as Error).message)).toContain('a/model-a');
  });
});

describe('anthropic client through the daemon', () => {
  const client = (fx: TwoSeats) => new Anthropic({ apiKey: AGENT_KEY, baseURL: fx.t.url, maxRetries: 0 });

  it('non-streaming message', async () => {
    fx = await startTwoSeats({ provider: 'anthropic' });
    const message = await client(fx).messages.create({ model: 'claude', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'hello from model-a' });
    expect(fx.a.requests[0]!.url).toBe('/v1/messages');
    // the SDK's own anthropic-version is forwarded as it sent it
    expect(fx.a.requests[0]!.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expectSeatCredentials(fx, 'anthropic');
  });

  it('streaming message', async () => {
    fx = await startTwoSeats({ provider: 'anthropic' });
    const stream = client(fx).messages.stream({ model: 'claude', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const final = await stream.finalMessage();
    expect(deltas.join('')).toBe('hello from model-a');
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'hello from model-a' });
    expect((await fx.t.events.nextDecision()).stream).toBe(true);
  });

  it('raw streaming with stream: true, after a fail-over', async () => {
    fx = await startTwoSeats({ provider: 'anthropic', behaviourA: respond.status(402) });
    const stream = await client(fx).messages.create({
      model: 'claude',
      max_tokens: 16,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    for await (const event of stream)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    expect(text).toBe('hello from model-b');
  });

  it('surfaces a mid-stream failure as an error from the iterator', async () => {
    fx = await startTwoSeats({ provider: 'anthropic', behaviourA: respond.resetMidBody('event: ping\ndata: {"type":"ping"}\n\n') });
    const stream = await client(fx).messages.create({ model: 'claude', max_tokens: 16, stream: true, messages: [] });
    const err = await (async () => {
      for await (const _event of stream) {
        // drain
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(String((err as Error).message)).toContain('a/model-a');
  });
});
