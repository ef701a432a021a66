import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlledStream, respond } from '../helpers/fake-upstream.js';
import { readRest, readUntil } from '../helpers/read-stream.js';
import { CHAT, chatBody, MESSAGES, messagesBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { FAST_TIMEOUTS } from '../helpers/test-timing.js';

const influence = { enabled: true, cooldown_secs: 60 };
let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

describe('streaming pass-through', () => {
  it('relays a stream chunk by chunk: the client holds the first chunk before the upstream writes the last', async () => {
    const stream = new ControlledStream();
    fx = await startTwoSeats({ influence, behaviourA: stream.behaviour });
    const pending = fx.t.post(CHAT, chatBody({ stream: true }));
    await stream.started;
    stream.write('data: {"n":1}\n\n');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
    const reader = res.body!.getReader();

    // If the daemon buffered the body, this read would wait for an end that only comes below.
    expect(await readUntil(reader, '"n":1')).toBe('data: {"n":1}\n\n');
    stream.write('data: {"n":2}\n\n');
    expect(await readUntil(reader, '"n":2')).toBe('data: {"n":2}\n\n');
    stream.end('data: [DONE]\n\n');
    expect(await readRest(reader)).toBe('data: [DONE]\n\n');

    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ stream: true, status: 200, served_by: 'a/model-a' });
    expect(d.attempts.map((a) => a.outcome)).toEqual(['ok']);
  });

  it('ends a broken Anthropic stream with an `event: error` carrying the Anthropic error object', async () => {
    fx = await startTwoSeats({
      provider: 'anthropic',
      influence,
      behaviourA: respond.resetMidBody('event: message_start\ndata: {"type":"message_start"}\n\n'),
    });
    const res = await fx.t.post(MESSAGES, messagesBody({ stream: true }));
    const text = await res.text();
    expect(text.startsWith('event: message_start\n')).toBe(true);
    const tail = text.slice(text.indexOf('event: error'));
    expect(tail).toMatch(/^event: error\ndata: .*\n\n$/);
    const data = JSON.parse(tail.split('\n')[1]!.slice('data: '.length));
    expect(data).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('a/model-a') } });
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.outcome, a.status])).toEqual([['stream_error', 200]]);
    expect(fx.b.requests).toHaveLength(0);
  });

  it('an upstream that stalls mid-stream past idle_ms: the stream ends with an error event and the connection is destroyed', async () => {
    const stream = new ControlledStream();
    fx = await startTwoSeats({ influence, behaviourA: stream.behaviour, timeouts: FAST_TIMEOUTS });
    const pending = fx.t.post(CHAT, chatBody({ stream: true }));
    await stream.started;
    stream.write('data: {"n":1}\n\n');
    const res = await pending;
    const text = await res.text();
    expect(text).toMatch(/^data: \{"n":1\}\n\ndata: \{"error":\{.*"code":"stream_error"\}\}\n\n$/);
    expect(text).toContain('(timeout)');
    await fx.a.requests[0]!.closed;
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => a.outcome)).toEqual(['stream_error']);
  });

  it('cuts a non-streamed 200 that breaks after bytes reached the agent', async () => {
    fx = await startTwoSeats({
      influence,
      behaviourA: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
        res.write('{"id":"partial",', () => setImmediate(() => res.socket?.destroy()));
      },
    });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => a.outcome)).toEqual(['stream_error']);
    expect(fx.b.requests).toHaveLength(0);
  });

  it('relays a compressed body as it is, with its content-encoding', async () => {
    const compressed = gzipSync(Buffer.from(JSON.stringify({ id: 'x', note: 'compressed' })));
    fx = await startTwoSeats({
      influence,
      behaviourA: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(compressed.length) });
        res.end(compressed);
      },
    });
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(
        fx!.t.url + CHAT,
        { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(chatBody()));
    });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.body.equals(compressed)).toBe(true);
    expect(fx.a.requests[0]!.headers['accept-encoding']).toBe('gzip');
  });
});
