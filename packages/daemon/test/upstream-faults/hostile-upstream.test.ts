import { describe, expect } from 'vitest';
import { respond } from '../helpers/fake-upstream.js';
import { readUntil } from '../helpers/read-stream.js';
import { expectServedAgainByA, hostileIt as it, streakOfA, type Family, type HostileFixture } from '../helpers/hostile-fixture.js';
import { CLOSE_BOUND_MS, within } from '../helpers/bounded-wait.js';
import { errorHeadersThenSilence, headersThenSilence, rawResponse, stallAfterFirstChunk } from '../helpers/hostile-behaviours.js';
import { expectAnthropicError, expectOpenAiError, expectRouteplaneHeaders, streamErrorData, type Json } from '../helpers/error-shapes.js';

/**
 * Hostile upstreams (issue 7). Each case: what the agent gets (status and
 * shape), what the breaker learns (evidence or not), that the daemon closes
 * the bad connection itself (the fake upstream never does), and that the
 * next request is served — by the same seat once it behaves, proving no
 * pooled connection was left wedged. Every test ends (fixture.finish) with
 * no probe claimed and every upstream socket closed.
 */

/** The daemon itself closed the connection of a's `n`th request (the fake upstream never closes it). */
async function aClosed(fx: HostileFixture, n = 0, what = 'the daemon closes the hostile connection'): Promise<void> {
  await within(fx.a.requests[n]!.closed, CLOSE_BOUND_MS, what);
}

function expectFamilyError(family: Family, body: Json, openaiCode: string, anthropicType: string): string {
  if (family === 'openai') {
    expectOpenAiError(body, openaiCode);
    return body.error.message as string;
  }
  expectAnthropicError(body, anthropicType);
  return body.error.message as string;
}

function firstChunkOf(family: Family): string {
  return family === 'openai'
    ? 'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n'
    : 'event: message_start\ndata: {"type":"message_start","message":{"id":"m1"}}\n\n';
}

describe.concurrent.each<Family>(['openai', 'anthropic'])('timeouts (%s family)', (family) => {
  it('accepts and never sends headers: first-byte timeout, evidence, fail-over; alone it is a 504 naming the target', async ({
    hostile,
  }) => {
    const fx = await hostile({ family, behaviourA: respond.hang() });
    const res = await fx.post(fx.main());
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 2, 'b/model-b');
    await res.json();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'timeout', null],
      ['b', 'ok', 200],
    ]);
    expect(streakOfA(fx)).toBe(1);
    await aClosed(fx, 0, 'the timed-out connection is destroyed');

    const solo = await fx.post(fx.solo());
    expect(solo.status).toBe(504);
    expectRouteplaneHeaders(solo, 1, null);
    const message = expectFamilyError(family, await solo.json(), 'gateway_timeout', 'timeout_error');
    expect(message).toContain('a/model-a (timeout)');
    expect((await fx.t.events.nextDecision()).status).toBe(504);
    expect(streakOfA(fx)).toBe(2);
    await aClosed(fx, 1);

    await expectServedAgainByA(fx);
    expect(streakOfA(fx)).toBe(0);
  });

  it('sends headers, then never a body byte: idle timeout before the agent got anything, so it still fails over', async ({ hostile }) => {
    const fx = await hostile({ family, behaviourA: headersThenSilence() });
    const res = await fx.post(fx.main({ stream: true }));
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 2, 'b/model-b');
    expect(await res.text()).toContain('model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'timeout', 200],
      ['b', 'ok', 200],
    ]);
    expect(streakOfA(fx)).toBe(1);
    await aClosed(fx);
    await expectServedAgainByA(fx);
  });

  it('stalls mid-stream: idle timeout ends the agent stream with the family error event, evidence recorded, no fail-over', async ({
    hostile,
  }) => {
    const first = firstChunkOf(family);
    const fx = await hostile({ family, behaviourA: stallAfterFirstChunk(first) });
    const res = await fx.post(fx.main({ stream: true }));
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 1, 'a/model-a');
    const text = await res.text();
    expect(text.startsWith(first)).toBe(true);
    const error = streamErrorData(text, family);
    const message = expectFamilyError(family, error, 'stream_error', 'api_error');
    expect(message).toBe('upstream a/model-a broke off mid-response (timeout)');

    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status: 200, served_by: 'a/model-a' });
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'stream_error', 200]]);
    expect(streakOfA(fx)).toBe(1);
    expect(fx.b.requests).toHaveLength(0);
    await aClosed(fx);
    await expectServedAgainByA(fx);
  });
});

describe.concurrent('bodies that break or lie (openai family unless said)', () => {
  it('a non-streamed 200 that stalls after some bytes: cut (the agent cannot mistake it for whole), evidence, socket closed', async ({
    hostile,
  }) => {
    const fx = await hostile({
      behaviourA: stallAfterFirstChunk('{"id":"chatcmpl-1","choices":[', { 'content-type': 'application/json', 'content-length': '500' }),
    });
    const res = await fx.post(fx.main());
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([['a', 'stream_error']]);
    expect(streakOfA(fx)).toBe(1);
    await aClosed(fx);
    await expectServedAgainByA(fx);
  });

  it('content-length too short (extra bytes after the declared body): the agent gets exactly the declared bytes; the poisoned connection is dropped', async ({
    hostile,
  }) => {
    const declared = '{"ok":true}';
    const fx = await hostile({
      behaviourA: rawResponse(
        `HTTP/1.1 200 OK\ncontent-type: application/json\ncontent-length: ${declared.length}`,
        `${declared}GARBAGE-AFTER-THE-BODY {"more":1}`,
      ),
    });
    const res = await fx.post(fx.solo());
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 1, 'a/model-a');
    expect(await res.text()).toBe(declared);
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'ok', 200]]);
    // the fake leaves the socket open: the daemon's client must not keep a connection with garbage on it
    await aClosed(fx, 0, 'the connection with bytes after the response is dropped');
    await expectServedAgainByA(fx);
  });

  it('content-length too long, then silence: idle timeout cuts the agent body, evidence, socket closed', async ({ hostile }) => {
    const fx = await hostile({
      behaviourA: rawResponse('HTTP/1.1 200 OK\ncontent-type: application/json\ncontent-length: 400', '{"id":"short"'),
    });
    const res = await fx.post(fx.main());
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([['a', 'stream_error']]);
    expect(streakOfA(fx)).toBe(1);
    expect(fx.b.requests).toHaveLength(0);
    await aClosed(fx);
    await expectServedAgainByA(fx);
  });

  it('content-length too long, then the upstream closes: cut at once, evidence', async ({ hostile }) => {
    const fx = await hostile({
      behaviourA: rawResponse('HTTP/1.1 200 OK\ncontent-type: text/event-stream\ncontent-length: 400', firstChunkOf('openai'), {
        end: true,
      }),
    });
    const res = await fx.post(fx.main({ stream: true }));
    expect(res.status).toBe(200);
    // a body with a declared length is cut rather than ended with an error event: the length already lied
    await expect(res.text()).rejects.toThrow();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([['a', 'stream_error']]);
    expect(streakOfA(fx)).toBe(1);
    await expectServedAgainByA(fx);
  });

  it.for<Family>(['openai', 'anthropic'])(
    'reset mid-stream (%s): the family error event ends the stream, evidence, a healthy seat serves next',
    async (family, { hostile }) => {
      const first = firstChunkOf(family);
      const fx = await hostile({ family, behaviourA: respond.resetMidBody(first) });
      const res = await fx.post(fx.main({ stream: true }));
      const reader = res.body!.getReader();
      let text = await readUntil(reader, first);
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += new TextDecoder().decode(r.value);
      expect(text.startsWith(first)).toBe(true);
      const message = expectFamilyError(family, streamErrorData(text, family), 'stream_error', 'api_error');
      expect(message).toBe('upstream a/model-a broke off mid-response (network)');
      const d = await fx.t.events.nextDecision();
      expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'stream_error', 200]]);
      expect(streakOfA(fx)).toBe(1);
      expect(fx.b.requests).toHaveLength(0);
      await expectServedAgainByA(fx);
    },
  );

  it('an error status whose body stalls: the error still counts, the request fails over; alone the agent gets that status', async ({
    hostile,
  }) => {
    const fx = await hostile({ behaviourA: errorHeadersThenSilence(503) });
    const res = await fx.post(fx.main());
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 2, 'b/model-b');
    await res.text();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'http_5xx', 503],
      ['b', 'ok', 200],
    ]);
    expect(streakOfA(fx)).toBe(1);
    await aClosed(fx);

    const solo = await fx.post(fx.solo());
    expect(solo.status).toBe(503);
    expectRouteplaneHeaders(solo, 1, 'a/model-a');
    // what the upstream managed to send before it stalled, as it was
    expect(await solo.text()).toBe('{"error":');
    await fx.t.events.nextDecision();
    await aClosed(fx, 1);
    await expectServedAgainByA(fx);
  });

  it('an error body that never ends: read up to a cap, the connection destroyed, a daemon-made error in its place', async ({ hostile }) => {
    const fx = await hostile({
      behaviourA: (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        const chunk = 'x'.repeat(64 * 1024);
        // keep writing until the daemon hangs up on us
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      },
    });
    const solo = await fx.post(fx.solo());
    expect(solo.status).toBe(500);
    expectRouteplaneHeaders(solo, 1, 'a/model-a');
    const message = expectFamilyError('openai', await solo.json(), 'bad_gateway', 'api_error');
    expect(message).toBe('upstream a/model-a answered 500 with an error body too large to relay');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'http_5xx', 500]]);
    await aClosed(fx);
    await expectServedAgainByA(fx);
  });

  it('garbage instead of an HTTP response: a network failure, fail-over, socket closed', async ({ hostile }) => {
    const fx = await hostile({ behaviourA: rawResponse('SSH-2.0-OpenSSH_9.6 hello', 'not http at all') });
    const res = await fx.post(fx.main());
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 2, 'b/model-b');
    await res.text();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([
      ['a', 'network'],
      ['b', 'ok'],
    ]);
    expect(streakOfA(fx)).toBe(1);
    await aClosed(fx);
    await expectServedAgainByA(fx);
  });

  it('response headers too large to parse: a network failure, fail-over, socket closed', async ({ hostile }) => {
    const fx = await hostile({
      behaviourA: rawResponse(
        `HTTP/1.1 200 OK\ncontent-type: application/json\nx-bloat: ${'b'.repeat(128 * 1024)}\ncontent-length: 2`,
        '{}',
      ),
    });
    const res = await fx.post(fx.main());
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    expect(res.headers.get('x-bloat')).toBeNull();
    await res.text();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([
      ['a', 'network'],
      ['b', 'ok'],
    ]);
    await aClosed(fx);
    await expectServedAgainByA(fx);
  });
});

describe.concurrent('answers that are wrong but well-formed HTTP', () => {
  it('invalid SSE is relayed byte for byte: the daemon does not parse streams, so it is the upstream answer (outcome ok)', async ({
    hostile,
  }) => {
    const garbage = 'this is not SSE\r\n\u0000\u0001 {{{ data-without-colon\nevent:\n\n\ndata: {"half": \n: comment\n';
    const fx = await hostile({
      behaviourA: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(garbage);
      },
    });
    const res = await fx.post(fx.main({ stream: true }));
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 1, 'a/model-a');
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe(garbage);
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'ok', 200]]);
    await expectServedAgainByA(fx);
  });

  it('a 200 carrying an HTML error page is passed through as the upstream 200, and counts as a success', async ({ hostile }) => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';
    const fx = await hostile({ behaviourA: respond.status(500) });
    // two real failures first, so the success below visibly resets the streak
    for (let i = 0; i < 2; i++) {
      await (await fx.post(fx.main())).text();
      await fx.t.events.nextDecision();
    }
    expect(streakOfA(fx)).toBe(2);

    fx.a.setDefault((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(html)) });
      res.end(html);
    });
    const res = await fx.post(fx.main());
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 1, 'a/model-a');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(html);
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'ok', 200]]);
    expect(streakOfA(fx)).toBe(0);
    await expectServedAgainByA(fx);
  });

  it('a redirect is handed back as it is and never followed (following it would carry the seat key elsewhere)', async ({ hostile }) => {
    const fx = await hostile({ behaviourA: respond.json(307, { moved: true }, { location: 'http://127.0.0.1:1/steal' }) });
    const res = await fx.post(fx.main(), { redirect: 'manual' });
    expect(res.status).toBe(307);
    expectRouteplaneHeaders(res, 1, 'a/model-a');
    expect(res.headers.get('location')).toBe('http://127.0.0.1:1/steal');
    expect(await res.json()).toEqual({ moved: true });
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.status])).toEqual([['a', 307]]);
    expect(fx.a.requests).toHaveLength(1);
    expect(fx.b.requests).toHaveLength(0);
    await expectServedAgainByA(fx);
  });
});
