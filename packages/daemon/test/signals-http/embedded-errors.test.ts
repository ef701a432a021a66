import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { anthropicMessageStream, type Behaviour, openaiChatCompletion, openaiChatStream, respond } from '../helpers/fake-upstream.js';
import { CHAT, chatBody, MESSAGES, messagesBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropicStream, openrouter } from '../signals/fixtures.js';
import { anthropicClient, openaiClient } from './sdk.js';
import { attemptsOf, controlSnapshot } from './support.js';

/**
 * Errors inside a 2xx: OpenRouter
 * answers some failures with HTTP 200 and an `error` body or first SSE data
 * event; an Anthropic stream can open with `event: error`. The daemon holds
 * the 2xx until its first chunk, and when that is an error the request fails
 * over before a byte — status line, headers or body — reached the agent. An
 * embedded error that is the request's own fault is relayed as sent.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 1 };

/** HTTP 200 with the given body in one write, marked so the test can tell whose headers the agent got. */
function ok200(body: string, contentType: string): Behaviour {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'x-served-by-upstream': 'a' });
    res.end(body);
  };
}

const sseBody = (events: string[]) => events.join('');

/**
 * HTTP 200 event stream written piece by piece: each piece once the one
 * before reached the socket and the loop has turned through a poll phase
 * (the daemon runs in this process, so it has read that piece by then as a
 * chunk of its own). Then the stream ends.
 */
function piecesApart(pieces: string[]): Behaviour {
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-served-by-upstream': 'a' });
    for (const piece of pieces) {
      await new Promise<void>((resolve) => res.write(piece, () => resolve()));
      await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    }
    res.end();
  };
}

const KEEP_ALIVE = ': OPENROUTER PROCESSING\n\n';

describe('an error inside a 200 fails over before any byte reached the agent', () => {
  it('OpenRouter JSON 200 {"error":{"code":502}}: model_error on the target, the agent gets only the sibling’s answer', async () => {
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: ok200(openrouter.modelDown, 'application/json') });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(openaiChatCompletion('model-b', 'hello from model-b'));
    expect(res.headers.get('x-served-by-upstream')).toBeNull();
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    expect(res.headers.get('x-routeplane-attempts')).toBe('2');

    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_5xx', 200, 'model_error'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(d.attempts[0]!.signal).toEqual({ status: 502, type: null, code: '502', header: null, message: 'model is down' });
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({ key: 'errors:a/model-a', signal: d.attempts[0]!.signal });
  });

  it('OpenRouter JSON 200 {"error":{"code":402}}: credit, the seat trips', async () => {
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: ok200(openrouter.insufficientCredits, 'application/json') });
    const completion = await openaiClient(fx.t).chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.choices[0]!.message.content).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_402', 200, 'credit'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({ key: 'credit:a', scope: 'seat_credit', signal: { status: 402, code: '402' } });
    expect((await controlSnapshot(fx.t)).breakers.map((b) => b.key)).toEqual(['credit:a']);
  });

  it('OpenAI-family stream whose first data event is an error (OpenRouter, after its processing comment)', async () => {
    const events = [': OPENROUTER PROCESSING\n\n', `data: ${openrouter.noProvider}\n\n`, 'data: [DONE]\n\n'];
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: ok200(sseBody(events), 'text/event-stream') });
    const res = await fx.t.post(CHAT, chatBody({ stream: true }));
    expect(res.status).toBe(200);
    // byte for byte the sibling's stream: nothing of the failed one came first
    expect(await res.text()).toBe(sseBody(openaiChatStream('model-b', 'hello from model-b')));
    expect(res.headers.get('x-served-by-upstream')).toBeNull();
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_5xx', 200, 'model_error'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(d.attempts[0]!.signal).toMatchObject({ status: 503, code: '503' });
  });

  it('OpenRouter keep-alive comments in chunks of their own, then the error: held back, and the request fails over', async () => {
    fx = await startTwoSeats({
      provider: 'openai',
      influence,
      behaviourA: piecesApart([KEEP_ALIVE, KEEP_ALIVE, `data: ${openrouter.noProvider}\n\n`]),
    });
    const res = await fx.t.post(CHAT, chatBody({ stream: true }));
    // not even the comments or the upstream's headers came first
    expect(await res.text()).toBe(sseBody(openaiChatStream('model-b', 'hello from model-b')));
    expect(res.headers.get('x-served-by-upstream')).toBeNull();
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_5xx', 200, 'model_error'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(d.attempts[0]!.signal).toMatchObject({ status: 503, code: '503' });
  });

  it('a stream that stays open after its error: the error decides (credit), not the cancel that follows', async () => {
    fx = await startTwoSeats({
      provider: 'openai',
      influence,
      behaviourA: piecesApart([`data: ${openrouter.insufficientCredits}\n\n`, KEEP_ALIVE, KEEP_ALIVE]),
    });
    const res = await fx.t.post(CHAT, chatBody({ stream: true }));
    expect(await res.text()).toBe(sseBody(openaiChatStream('model-b', 'hello from model-b')));
    expect(attemptsOf(await fx.t.events.nextDecision())).toEqual([
      ['a/model-a', 'http_402', 200, 'credit'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(await fx.t.events.take(isBreaker('tripped', 'a'))).toMatchObject({ key: 'credit:a' });
  });

  it('keep-alive comments in chunks of their own, then an answer: the held comments go out first, then the answer', async () => {
    const answer = openaiChatStream('model-a', 'hello from model-a');
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: piecesApart([KEEP_ALIVE, KEEP_ALIVE, ...answer]) });
    const res = await fx.t.post(CHAT, chatBody({ stream: true }));
    expect(await res.text()).toBe(sseBody([KEEP_ALIVE, KEEP_ALIVE, ...answer]));
    expect(res.headers.get('x-served-by-upstream')).toBe('a');
    expect(attemptsOf(await fx.t.events.nextDecision())).toEqual([['a/model-a', 'ok', 200, 'ok']]);
    expect(fx.b.requests).toHaveLength(0);
  });

  it('the same through the OpenAI SDK: the agent’s stream is the sibling’s, no error surfaces', async () => {
    fx = await startTwoSeats({
      provider: 'openai',
      influence,
      behaviourA: ok200(sseBody([`data: ${openrouter.modelDown}\n\n`]), 'text/event-stream'),
    });
    const stream = await openaiClient(fx.t).chat.completions.create({
      model: 'gpt',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('hello from model-b');
  });

  it('Anthropic stream that opens with event: error overloaded_error: model_error, fail-over (raw and SDK)', async () => {
    fx = await startTwoSeats({
      provider: 'anthropic',
      influence: { ...influence, trip_threshold: 3 },
      behaviourA: ok200(anthropicStream.overloadedEvent, 'text/event-stream'),
    });
    const res = await fx.t.post(MESSAGES, messagesBody({ stream: true }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(sseBody(anthropicMessageStream('model-b', 'hello from model-b')));
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_5xx', 200, 'model_error'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(d.attempts[0]!.signal).toEqual({ status: 500, type: 'overloaded_error', code: null, header: null, message: 'Overloaded' });

    const stream = anthropicClient(fx.t).messages.stream({ model: 'claude', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'hello from model-b' });
  });
});

describe('an embedded error that is the request’s fault', () => {
  it('OpenRouter JSON 200 {"error":{"code":400}}: relayed as the upstream sent it, no fail-over, trips nothing', async () => {
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: ok200(openrouter.badRequest, 'application/json') });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(openrouter.badRequest);
    expect(res.headers.get('x-served-by-upstream')).toBe('a');
    expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
    expect(fx.b.requests).toHaveLength(0);
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status: 200, served_by: 'a/model-a' });
    expect(attemptsOf(d)).toEqual([['a/model-a', 'http_4xx', 200, 'none']]);
    expect(d.attempts[0]!.signal).toMatchObject({ status: 400, code: '400' });
    expect(fx.t.events.all(isBreaker())).toEqual([]);
  });

  it('relayed as such, it is no success either: it does not clear the seat’s breaker', async () => {
    fx = await startTwoSeats({ provider: 'openai', influence: { ...influence, cooldown_secs: 0.2 }, behaviourA: respond.status(402) });
    await fx.t.post(CHAT, chatBody());
    await fx.t.events.nextDecision();
    await fx.t.events.take(isBreaker('probe_ready', 'a'));
    fx.a.setDefault(ok200(openrouter.badRequest, 'application/json'));

    // the probe's request gets the request's-fault answer: no verdict, the breaker stays
    const res = await fx.t.post(CHAT, chatBody());
    expect(await res.text()).toBe(openrouter.badRequest);
    const d = await fx.t.events.nextDecision();
    expect(d.chain[0]).toMatchObject({ seat: 'a', state: 'probe' });
    expect(fx.t.events.all(isBreaker('cleared'))).toEqual([]);
    expect((await controlSnapshot(fx.t)).breakers).toEqual([expect.objectContaining({ key: 'credit:a', phase: 'probe_ready' })]);
  });
});
