import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respond, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody, MESSAGES, messagesBody } from '../helpers/two-seats.js';
import { expectAnthropicError, expectOpenAiError, type Json } from '../helpers/error-shapes.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';

/**
 * Bad input from agents (issue 7): every case is answered in the family's
 * error shape with a message that says what is wrong, the upstreams see
 * nothing of it, and the very next good request is served. One daemon for
 * the whole file: a bad request must not spoil the daemon for the next one.
 */

let o: FakeUpstream;
let x: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  o = await startFakeUpstream(respond.openaiChat());
  x = await startFakeUpstream(respond.anthropicMessage());
  t = await startTestDaemon({
    seats: [
      { id: 'o', provider: 'openai', upstream: o },
      { id: 'x', provider: 'anthropic', upstream: x },
    ],
    routes: [
      { model: 'gpt', chain: [{ seat: 'o', model: 'gpt-real' }] },
      { model: 'claude', chain: [{ seat: 'x', model: 'claude-real' }] },
    ],
    server: { body_limit_mb: 1 },
  });
});

afterAll(async () => {
  await t.close();
  await Promise.all([o.close(), x.close()]);
});

type Family = 'openai' | 'anthropic';
const PATH: Record<Family, string> = { openai: CHAT, anthropic: MESSAGES };

interface Expected {
  status: number;
  /** OpenAI `error.code` */
  openaiCode: string;
  /** Anthropic `error.type` */
  anthropicType: string;
  /** a word the message must contain, so it says what is wrong */
  says: RegExp;
  /** a proxied POST refused before routing carries x-routeplane-* (attempts 0); the daemon's own 404/405 do not */
  routeplaneHeaders: boolean;
  /** bad bodies yield a decision; refusals before the body is read do not */
  decision: boolean;
}

/** Checks the answer, then proves the daemon still serves: the next good request of the family gets a 200 from its upstream. */
async function expectRefusedThenServed(family: Family, answer: RawAnswer, want: Expected): Promise<void> {
  const sentBefore = o.requests.length + x.requests.length;
  expect(answer.status).toBe(want.status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body: Json = JSON.parse(answer.text);
  if (family === 'openai') {
    expectOpenAiError(body, want.openaiCode);
    expect(body.error.message).toMatch(want.says);
  } else {
    expectAnthropicError(body, want.anthropicType);
    expect(body.error.message).toMatch(want.says);
  }
  if (want.routeplaneHeaders) {
    expect(answer.headers['x-routeplane-attempts']).toBe('0');
    expect(answer.headers['x-routeplane-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  } else {
    expect(Object.keys(answer.headers).filter((h) => h.startsWith('x-routeplane-'))).toEqual([]);
  }
  expect(answer.headers['x-routeplane-target']).toBeUndefined();

  const good = family === 'openai' ? await t.post(CHAT, chatBody()) : await t.post(MESSAGES, messagesBody());
  expect(good.status).toBe(200);
  expect(good.headers.get('x-routeplane-target')).toBe(family === 'openai' ? 'o/gpt-real' : 'x/claude-real');
  await good.text();
  // the bad request never reached an upstream: only the good one did
  expect(o.requests.length + x.requests.length).toBe(sentBefore + 1);

  // exactly one decision for the bad request when it is a bad body, none otherwise: the next decision tells
  if (want.decision) {
    const bad = await t.events.nextDecision();
    expect(bad).toMatchObject({ status: want.status, served_by: null, attempts: [], family });
  }
  const served = await t.events.nextDecision();
  expect(served).toMatchObject({ status: 200, family });
}

const BAD_BODY = (says: RegExp): Expected => ({
  status: 400,
  openaiCode: 'invalid_body',
  anthropicType: 'invalid_request_error',
  says,
  routeplaneHeaders: true,
  decision: true,
});

const NOT_JSON = /not valid JSON/;
const NO_MODEL = /no "model" field/;
const MODEL_TYPE = /"model" must be a string/;
const NOT_OBJECT = /must be a JSON object/;

describe.each<Family>(['openai', 'anthropic'])('bad bodies (%s family)', (family) => {
  const post = (body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    rawRequest(t.url, { path: PATH[family], headers, body });

  it.each([
    ['truncated JSON', '{"model": "gpt", "messages": ['],
    ['plain text', 'hello, model'],
    ['a trailing comma', '{"model": "gpt",}'],
    ['NaN as a value', '{"model": "gpt", "temperature": NaN}'],
  ])('body that is not JSON (%s): 400 saying so', async (_what, body) => {
    await expectRefusedThenServed(family, await post(body), BAD_BODY(NOT_JSON));
  });

  it('binary garbage with no content-type: 400 not JSON', async () => {
    await expectRefusedThenServed(family, await post(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0x01]), {}), BAD_BODY(NOT_JSON));
  });

  it('an empty body: 400 saying it is empty', async () => {
    await expectRefusedThenServed(family, await post(''), BAD_BODY(/body is empty/));
  });

  it.each([['[{"model":"gpt"}]'], ['"gpt"'], ['null'], ['42']])('JSON that is not an object (%s): 400', async (body) => {
    await expectRefusedThenServed(family, await post(body), BAD_BODY(NOT_OBJECT));
  });

  it('no model: 400 naming the missing field', async () => {
    await expectRefusedThenServed(
      family,
      await post('{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8}'),
      BAD_BODY(NO_MODEL),
    );
  });

  it('"model" only inside a nested object is still no model', async () => {
    await expectRefusedThenServed(family, await post('{"metadata": {"model": "gpt"}, "messages": []}'), BAD_BODY(NO_MODEL));
  });

  it.each([
    ['a number', '42', /got a number/],
    ['null', 'null', /got null/],
    ['an array', '["gpt"]', /got an array/],
    ['an object', '{"name": "gpt"}', /got an object/],
    ['a boolean', 'true', /got a boolean/],
  ])('model that is not a string (%s): 400 naming its type', async (_what, value, says) => {
    const answer = await post(`{"model": ${value}, "messages": []}`);
    await expectRefusedThenServed(family, answer, BAD_BODY(new RegExp(`${MODEL_TYPE.source}, ${says.source}`)));
  });

  it('a body over body_limit_mb with a content-length: 413, routeplane headers, no decision', async () => {
    const big = JSON.stringify({ model: family === 'openai' ? 'gpt' : 'claude', pad: 'p'.repeat(1024 * 1024 + 10) });
    await expectRefusedThenServed(family, await post(big), {
      status: 413,
      openaiCode: 'request_too_large',
      anthropicType: 'request_too_large',
      says: /body_limit_mb \(1 MB\)/,
      routeplaneHeaders: true,
      decision: false,
    });
  });

  it('a chunked body growing past body_limit_mb: 413 as well', async () => {
    const big = JSON.stringify({ model: family === 'openai' ? 'gpt' : 'claude', pad: 'q'.repeat(2 * 1024 * 1024) });
    const answer = await rawRequest(t.url, {
      path: PATH[family],
      headers: { 'content-type': 'application/json' },
      body: big,
      chunked: true,
    });
    await expectRefusedThenServed(family, answer, {
      status: 413,
      openaiCode: 'request_too_large',
      anthropicType: 'request_too_large',
      says: /body_limit_mb/,
      routeplaneHeaders: true,
      decision: false,
    });
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])('wrong method (%s): 405 with allow: POST, in the family shape', async (method) => {
    const answer = await rawRequest(t.url, { method, path: PATH[family] });
    expect(answer.headers.allow).toBe('POST');
    await expectRefusedThenServed(family, answer, {
      status: 405,
      openaiCode: 'method_not_allowed',
      anthropicType: 'invalid_request_error',
      says: new RegExp(`${method} ${PATH[family]} is not supported`),
      routeplaneHeaders: false,
      decision: false,
    });
  });

  it('one huge header: 431 in the family shape, the connection closed, the daemon still serving', async () => {
    const answer = await rawRequest(t.url, {
      path: PATH[family],
      headers: { 'content-type': 'application/json', 'x-huge': 'h'.repeat(64 * 1024) },
      body: '{}',
    });
    expect(answer.headers.connection).toBe('close');
    await expectRefusedThenServed(family, answer, {
      status: 431,
      openaiCode: 'header_too_large',
      anthropicType: 'invalid_request_error',
      says: /headers are too large/,
      routeplaneHeaders: false,
      decision: false,
    });
  });

  it('many headers adding up past the limit: 431 as well', async () => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    for (let i = 0; i < 400; i++) headers[`x-many-${i}`] = 'm'.repeat(64);
    const answer = await rawRequest(t.url, { path: PATH[family], headers, body: '{}' });
    await expectRefusedThenServed(family, answer, {
      status: 431,
      openaiCode: 'header_too_large',
      anthropicType: 'invalid_request_error',
      says: /headers are too large/,
      routeplaneHeaders: false,
      decision: false,
    });
  });
});

describe('unsupported paths', () => {
  it.each([
    ['POST', '/v2/chat/completions'],
    ['POST', '/v1'],
    ['POST', '/'],
    ['GET', '/admin'],
    ['DELETE', '/healthz/x'],
  ])('%s %s: 404 unknown_path naming it', async (method, path) => {
    const answer = await rawRequest(t.url, {
      method,
      path,
      headers: { 'content-type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(chatBody()) : '',
    });
    await expectRefusedThenServed('openai', answer, {
      status: 404,
      openaiCode: 'unknown_path',
      anthropicType: 'not_found_error',
      says: new RegExp(`no such endpoint: ${method} ${path.replace(/\//g, '\\/')}$`),
      routeplaneHeaders: false,
      decision: false,
    });
  });

  it('a path that climbs out with dot segments: 400 with a decision, never forwarded', async () => {
    const answer = await rawRequest(t.url, {
      path: '/v1/%2e%2e/admin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody()),
    });
    await expectRefusedThenServed('openai', answer, BAD_BODY(/"\." or "\.\." segments/));
  });

  it('a request line too long to be a header block: 431, the daemon still serving', async () => {
    const answer = await rawRequest(t.url, {
      path: `/v1/messages?pad=${'u'.repeat(64 * 1024)}`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await expectRefusedThenServed('anthropic', answer, {
      status: 431,
      openaiCode: 'header_too_large',
      anthropicType: 'invalid_request_error',
      says: /headers are too large/,
      routeplaneHeaders: false,
      decision: false,
    });
  });
});

describe('a model name an agent made hostile', () => {
  it('a megabyte-long model is a bounded 404 (the decision and message do not carry the megabyte)', async () => {
    const answer = await rawRequest(t.url, {
      path: CHAT,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm'.repeat(900_000) }),
    });
    expect(answer.text.length).toBeLessThan(2_000);
    await expectRefusedThenServed('openai', answer, {
      status: 404,
      openaiCode: 'model_not_found',
      anthropicType: 'not_found_error',
      says: /known routes: "gpt", "claude"/,
      routeplaneHeaders: true,
      decision: true,
    });
  });
});
