import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { ControlledStream, respond } from '../helpers/fake-upstream.js';
import { readRest, readUntil } from '../helpers/read-stream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody, MESSAGES, messagesBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropicStream, openaiStream } from '../signals/fixtures.js';
import { anthropicClient } from './sdk.js';
import { attemptsOf, controlProbe, controlSnapshot, stateEvents } from './support.js';

/**
 * An error event later in a stream:
 * bytes already reached the agent, so there is no fail-over — the agent gets
 * the upstream's error event as sent and the stream ends as the upstream
 * ends it — but the attempt is no success: outcome `stream_error`, evidence
 * `model_error`, on the target's streak, clearing nothing.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 2, window_secs: 300 };
const RESPONSES = '/v1/responses';

/**
 * One streamed request whose upstream writes `parts` one at a time, each only
 * after the agent has read the one before, so each reaches the daemon as a
 * chunk of its own; then ends the stream. The text the agent got, whole.
 */
async function streamInParts(t: TestDaemon, stream: ControlledStream, path: string, body: unknown, parts: readonly string[]) {
  const pending = t.post(path, body);
  await stream.started;
  stream.write(parts[0]!);
  const res = await pending;
  expect(res.status).toBe(200);
  expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
  const reader = res.body!.getReader();
  let text = '';
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) stream.write(parts[i]!);
    text += await readUntil(reader, parts[i]!);
  }
  stream.end();
  return text + (await readRest(reader));
}

/** A fresh controlled stream for seat a's next request. */
function nextStreamOnA(): ControlledStream {
  const stream = new ControlledStream();
  fx!.a.enqueue(stream.behaviour);
  return stream;
}

const anthropicFailing = [anthropicStream.messageStart, anthropicStream.textDelta('Hel'), anthropicStream.overloadedEvent];

describe('an error event after bytes reached the agent: relayed as sent, a model error on the target', () => {
  it('Anthropic event: error (overloaded_error): stream_error / model_error, no fail-over; trip_threshold of them trip the target', async () => {
    fx = await startTwoSeats({ provider: 'anthropic', influence });
    const text = await streamInParts(fx.t, nextStreamOnA(), MESSAGES, messagesBody({ stream: true }), anthropicFailing);
    expect(text).toBe(anthropicFailing.join(''));
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status: 200, served_by: 'a/model-a' });
    expect(attemptsOf(d)).toEqual([['a/model-a', 'stream_error', 200, 'model_error']]);
    expect(fx.b.requests).toHaveLength(0);
    // counted on the streak, no breaker yet
    expect((await controlSnapshot(fx.t)).seats.find((s) => s.id === 'a')!.models).toEqual([{ model: 'model-a', streak: 1, breaker: null }]);

    await streamInParts(fx.t, nextStreamOnA(), MESSAGES, messagesBody({ stream: true }), anthropicFailing);
    expect(attemptsOf(await fx.t.events.nextDecision())).toEqual([['a/model-a', 'stream_error', 200, 'model_error']]);
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({ key: 'errors:a/model-a', scope: 'model', reason: '2 consecutive failures' });
  });

  it('through the Anthropic SDK: the agent sees the overloaded error, and the attempt still counts when the SDK hangs up on it', async () => {
    fx = await startTwoSeats({ provider: 'anthropic', influence, behaviourA: respond.sse(anthropicFailing) });
    const stream = anthropicClient(fx.t).messages.stream({ model: 'claude', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([['a/model-a', 'stream_error', 200, 'model_error']]);
  });

  it('a credit breaker on the seat is not cleared by such a stream: the probe it answered fails', async () => {
    fx = await startTwoSeats({ provider: 'anthropic', influence, behaviourA: respond.status(402) });
    await fx.t.post(MESSAGES, messagesBody());
    await fx.t.events.nextDecision();
    await fx.t.events.take(isBreaker('tripped', 'a'));
    await controlProbe(fx.t, 'a');
    await fx.t.events.take(isBreaker('probe_ready', 'a'));

    await streamInParts(fx.t, nextStreamOnA(), MESSAGES, messagesBody({ stream: true }), anthropicFailing);
    const d = await fx.t.events.nextDecision();
    expect(d.chain[0]).toMatchObject({ seat: 'a', state: 'probe' });
    expect(attemptsOf(d)).toEqual([['a/model-a', 'stream_error', 200, 'model_error']]);
    await fx.t.events.take(isBreaker('probe_failed', 'a'));
    expect(fx.t.events.all(isBreaker('cleared'))).toEqual([]);
    expect((await controlSnapshot(fx.t)).breakers).toEqual([expect.objectContaining({ key: 'credit:a', phase: 'open', failed_probes: 1 })]);
  });

  it('OpenAI chat stream with a later data: {"error":{…}} (OpenRouter): stream_error / model_error, the agent gets it as sent', async () => {
    fx = await startTwoSeats({ provider: 'openai', influence });
    const parts = [openaiStream.chatDelta('Hel'), openaiStream.chatDelta('lo'), openaiStream.openrouterMidStream, 'data: [DONE]\n\n'];
    const text = await streamInParts(fx.t, nextStreamOnA(), CHAT, chatBody({ stream: true }), parts);
    expect(text).toBe(parts.join(''));
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status: 200, served_by: 'a/model-a' });
    expect(attemptsOf(d)).toEqual([['a/model-a', 'stream_error', 200, 'model_error']]);
    expect(fx.b.requests).toHaveLength(0);
  });

  it.each([
    ['response.completed, its events carrying "error":null: a success', openaiStream.responsesCompleted, ['ok', 'ok']],
    ['response.failed with its error set', openaiStream.responsesFailed, ['stream_error', 'model_error']],
    ['an event: error', openaiStream.responsesError, ['stream_error', 'model_error']],
  ])('Responses stream ending in %s', async (_what, last, [outcome, evidence]) => {
    fx = await startTwoSeats({ provider: 'openai', influence });
    const parts = [openaiStream.responsesCreated, openaiStream.responsesDelta('Hi'), last];
    const text = await streamInParts(fx.t, nextStreamOnA(), RESPONSES, { model: 'gpt', input: 'hi', stream: true }, parts);
    expect(text).toBe(parts.join(''));
    expect(attemptsOf(await fx.t.events.nextDecision())).toEqual([['a/model-a', outcome, 200, evidence]]);
  });
});

describe('the marker is found across chunk boundaries, and only where it can be', () => {
  it.each([
    [
      'anthropic',
      'event: err | or',
      [anthropicStream.messageStart, `${anthropicStream.textDelta('Hi')}event: err`, `or\n${anthropicStream.overloadedEvent.slice(13)}`],
    ],
    [
      'openai',
      '"err | or":{',
      [openaiStream.chatDelta('Hi'), 'data: {"id":"gen-1","err', 'or":{"code":502,"message":"model is down"}}\n\n'],
    ],
    [
      'openai',
      '"error": | {',
      [openaiStream.chatDelta('Hi'), 'data: {"id":"gen-1","error": ', '{"code":502,"message":"model is down"}}\n\n'],
    ],
  ] as const)('%s, split %s: still a stream_error', async (provider, _split, parts) => {
    fx = await startTwoSeats({ provider, influence });
    const path = provider === 'anthropic' ? MESSAGES : CHAT;
    const body = provider === 'anthropic' ? messagesBody({ stream: true }) : chatBody({ stream: true });
    expect(await streamInParts(fx.t, nextStreamOnA(), path, body, parts)).toBe(parts.join(''));
    expect(attemptsOf(await fx.t.events.nextDecision())).toEqual([['a/model-a', 'stream_error', 200, 'model_error']]);
  });

  const talk =
    'An SSE error looks like this:\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\nor {"error": {"code": 502}}';

  it.each([
    [
      'anthropic',
      [anthropicStream.messageStart, anthropicStream.textDelta(talk), 'event: message_stop\ndata: {"type":"message_stop"}\n\n'],
    ],
    ['openai', [openaiStream.chatDelta('Sure.'), openaiStream.chatDelta(talk), 'data: [DONE]\n\n']],
  ] as const)('%s: model text that talks about error events is an answer like any other', async (provider, parts) => {
    fx = await startTwoSeats({ provider, influence: { ...influence, trip_threshold: 1 } });
    const path = provider === 'anthropic' ? MESSAGES : CHAT;
    const body = provider === 'anthropic' ? messagesBody({ stream: true }) : chatBody({ stream: true });
    expect(await streamInParts(fx.t, nextStreamOnA(), path, body, parts)).toBe(parts.join(''));
    expect(attemptsOf(await fx.t.events.nextDecision())).toEqual([['a/model-a', 'ok', 200, 'ok']]);
    expect(stateEvents(fx.t)).toEqual([]);
  });
});
