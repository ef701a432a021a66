import { gzipSync } from 'node:zlib';
import type { Family } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import type { Classified } from '../../src/signals/classify.js';
import { classifyEmbedded, type FirstChunkVerdict } from '../../src/signals/embedded-error.js';
import { anthropicStream, buf, type Headers, LIMITS, NOW, openrouter, SEAT_KEY, SECRETS } from './fixtures.js';

/** Errors inside a 2xx, decided on the first body chunk. */

const SSE: Headers = { 'content-type': 'text/event-stream; charset=utf-8' };
const JSON_TYPE: Headers = { 'content-type': 'application/json' };

function verdict(family: Family, chunk: string | Buffer, headers: Headers = JSON_TYPE): FirstChunkVerdict {
  return classifyEmbedded({ family, headers, chunk: typeof chunk === 'string' ? buf(chunk) : chunk, now: NOW, secrets: SECRETS }, LIMITS);
}

/** The error the head shows, or null when it is served; a head that asks to wait is a test failure here. */
function embedded(family: Family, chunk: string | Buffer, headers: Headers = JSON_TYPE): Classified | null {
  const v = verdict(family, chunk, headers);
  if (v.kind === 'wait') throw new Error('the check waits for more');
  return v.kind === 'error' ? v.classified : null;
}

const UNKNOWN_500 = { class: 'model_error', signal: { status: 500, type: null, code: null, header: null, message: null } };

describe('a non-streamed JSON body whose first key is error (OpenRouter)', () => {
  it.each([
    ['402: credit', openrouter.insufficientCredits, 'credit', 'http_402', 'fail_over'],
    ['429: rate limit', openrouter.freeDailyLimit, 'rate_limit', 'http_429', 'fail_over'],
    ['502: model error', openrouter.modelDown, 'model_error', 'http_5xx', 'fail_over'],
    ['503: model error', openrouter.noProvider, 'model_error', 'http_5xx', 'fail_over'],
    ['400: the request is at fault, relayed as sent', openrouter.badRequest, 'none', 'http_4xx', 'pass_back'],
  ])('code %s', (_what, body, evidence, outcome, verdict) => {
    expect(embedded('openai', body)).toMatchObject({ evidence: { class: evidence }, outcome, verdict });
  });

  it('the signal carries the embedded code as its status', () => {
    expect(embedded('openai', openrouter.insufficientCredits)?.evidence).toEqual({
      class: 'credit',
      signal: {
        status: 402,
        type: null,
        code: '402',
        header: null,
        message: 'Your account or API key has insufficient credits. Add more credits and retry the request.',
      },
    });
  });

  it.each([
    ['no code', '{"error":{"message":"Overloaded","type":"overloaded_error"}}'],
    ['a string code', '{"error":{"code":"402","message":"x"}}'],
    ['a code that is not an error status', '{"error":{"code":200,"message":"x"}}'],
    ['a code past 599', '{"error":{"code":600,"message":"x"}}'],
    ['a fractional code', '{"error":{"code":402.5,"message":"x"}}'],
  ])('%s: classified as an embedded 500', (_what, body) => {
    expect(embedded('openai', body)).toMatchObject({
      evidence: { class: 'model_error', signal: { status: 500 } },
      outcome: 'http_5xx',
      verdict: 'fail_over',
    });
  });

  it('an Anthropic-family 200 with an overloaded error body is a model error', () => {
    expect(embedded('anthropic', '{"error":{"type":"overloaded_error","message":"Overloaded"}}')?.evidence.class).toBe('model_error');
  });

  it("reads the 200's own headers for a deadline", () => {
    expect(embedded('openai', openrouter.freeDailyLimit, { ...JSON_TYPE, 'retry-after': '30' })?.evidence).toMatchObject({
      class: 'rate_limit',
      waitMs: 30_000,
      signal: { status: 429, header: 'retry-after: 30' },
    });
  });

  it('whitespace, a BOM and a one-element array in front are fine; the content-type does not matter', () => {
    expect(embedded('openai', `\ufeff \n${openrouter.modelDown}`)?.evidence.class).toBe('model_error');
    expect(embedded('openai', `[ ${openrouter.insufficientCredits} ]`)?.evidence.class).toBe('credit');
    expect(embedded('openai', openrouter.insufficientCredits, { 'content-type': 'text/plain' })?.evidence.class).toBe('credit');
    expect(embedded('openai', openrouter.insufficientCredits, {})?.evidence.class).toBe('credit');
  });

  it.each([
    ['an answer', '{"id":"chatcmpl-123","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"}}]}'],
    ['an error key that is not the first', '{"id":"gen-1","error":{"code":502,"message":"model is down"}}'],
    ['error: null', '{"error":null,"id":"x"}'],
    ['a key that only starts with error', '{"errors":[{"code":502}]}'],
    ['an array of two', `[${openrouter.modelDown},${openrouter.modelDown}]`],
    ['not JSON at all', 'Hello'],
    ['empty', ''],
  ])('%s: served', (_what, body) => {
    expect(embedded('openai', body)).toBeNull();
  });

  it('a secret echoed in the embedded message is redacted', () => {
    const body = `{"error":{"code":401,"message":"bad key ${SEAT_KEY}"}}`;
    const result = embedded('openai', body);
    expect(result?.evidence.class).toBe('key_rejected');
    expect(JSON.stringify(result)).not.toContain(SEAT_KEY);
  });
});

describe('a first chunk cut short', () => {
  it('an error body cut after its key is an error of unknown shape: an embedded 500', () => {
    expect(embedded('openai', '{"error":{"code":402,"message":"Your acc')).toEqual({
      evidence: UNKNOWN_500,
      outcome: 'http_5xx',
      verdict: 'fail_over',
    });
    expect(embedded('openai', '{ "error"')).toMatchObject({ evidence: UNKNOWN_500 });
    expect(embedded('openai', '{"error" : ')).toMatchObject({ evidence: UNKNOWN_500 });
  });

  it('a body cut before its first key is complete is served', () => {
    expect(embedded('openai', '{"err')).toBeNull();
    expect(embedded('openai', '{')).toBeNull();
    expect(embedded('openai', '{"error"x')).toBeNull();
  });
});

describe('an OpenAI-family event stream whose first data event is an error', () => {
  it('an error data event is classified by its code', () => {
    expect(embedded('openai', `data: ${openrouter.modelDown}\n\n`, SSE)).toMatchObject({
      evidence: { class: 'model_error', signal: { status: 502 } },
    });
    expect(embedded('openai', `data: ${openrouter.insufficientCredits}\r\n\r\n`, SSE)).toMatchObject({ evidence: { class: 'credit' } });
  });

  it("skips OpenRouter's processing comments and events without data", () => {
    const chunk = `: OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\nretry: 1000\n\nevent: ping\n\ndata: ${openrouter.modelDown}\n\n`;
    expect(embedded('openai', chunk, SSE)?.evidence.class).toBe('model_error');
  });

  it("an error event anywhere but first is not this check's business", () => {
    const answer =
      'data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n';
    expect(embedded('openai', `${answer}data: ${openrouter.modelDown}\n\n`, SSE)).toBeNull();
  });

  it.each([
    [
      'a normal first chunk',
      'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n',
    ],
    [
      'a Responses stream',
      'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1","status":"in_progress","error":null}}\n\n',
    ],
    ['an error nested in the data, not a key of it', 'data: {"choices":[{"error":{"code":502}}]}\n\n'],
    ['error: null', 'data: {"error":null}\n\n'],
    ['[DONE]', 'data: [DONE]\n\n'],
    ['a data event that is not JSON but mentions "error"', 'data: "error"\n\n'],
  ])('%s: served', (_what, chunk) => {
    expect(embedded('openai', chunk, SSE)).toBeNull();
  });

  it('a data event cut short: an error if it opens with the error key, else served', () => {
    expect(embedded('openai', 'data: {"error":{"code":402,"mess', SSE)).toMatchObject({ evidence: UNKNOWN_500 });
    expect(embedded('openai', 'data: {"id":"gen-1","error":{"code":502,"mess', SSE)).toBeNull();
    // complete JSON, the blank line not yet arrived: decided on the JSON
    expect(embedded('openai', `data: ${openrouter.modelDown}\n`, SSE)).toMatchObject({
      evidence: { class: 'model_error', signal: { status: 502 } },
    });
  });

  it('a data event split over several data lines is joined', () => {
    expect(embedded('openai', 'data: {"error":\ndata: {"code":402,"message":"x"}}\n\n', SSE)?.evidence.class).toBe('credit');
  });
});

describe('a head of nothing but comments (OpenRouter keep-alives): wait for the first event', () => {
  it.each([
    ['one keep-alive', ': OPENROUTER PROCESSING\n\n'],
    ['several, CRLF line ends', ': OPENROUTER PROCESSING\r\n\r\n: OPENROUTER PROCESSING\r\n\r\n'],
    ['a comment still arriving', ': OPENROUTER PROCE'],
    ['a BOM, then a comment', '\ufeff: OPENROUTER PROCESSING\n\n'],
    ['blank lines only', '\n\n'],
  ])('%s: wait (both families)', (_what, head) => {
    expect(verdict('openai', head, SSE)).toEqual({ kind: 'wait' });
    expect(verdict('anthropic', head, SSE)).toEqual({ kind: 'wait' });
  });

  it('joined with the next chunk, the first event decides', () => {
    const head = ': OPENROUTER PROCESSING\n\n: OPENROUTER PROCESSING\n\n';
    expect(embedded('openai', `${head}data: ${openrouter.noProvider}\n\n`, SSE)).toMatchObject({ evidence: { class: 'model_error' } });
    expect(embedded('anthropic', head + anthropicStream.overloadedEvent, SSE)).toMatchObject({ evidence: { class: 'model_error' } });
    expect(embedded('openai', `${head}data: {"id":"gen-1","choices":[]}\n\n`, SSE)).toBeNull();
  });

  it.each([
    ['a field has begun', ': OPENROUTER PROCESSING\n\nda'],
    ['a retry field', 'retry: 1000\n\n'],
  ])('%s: decided now (served)', (_what, head) => {
    expect(verdict('openai', head, SSE)).toEqual({ kind: 'serve' });
  });

  it('a compressed head is read decoded', () => {
    const head = gzipSync(buf(': OPENROUTER PROCESSING\n\n'));
    expect(verdict('openai', head.subarray(0, head.length - 8), { ...SSE, 'content-encoding': 'gzip' })).toEqual({ kind: 'wait' });
  });

  it('only for event streams, and not past 65,536 bytes of comments', () => {
    expect(verdict('openai', ': OPENROUTER PROCESSING\n\n', JSON_TYPE)).toEqual({ kind: 'serve' });
    expect(verdict('openai', ': OPENROUTER PROCESSING\n\n'.repeat(3000), SSE)).toEqual({ kind: 'serve' });
  });
});

describe('an Anthropic event stream whose first event is event: error', () => {
  it('overloaded_error: an embedded 500, a model error', () => {
    expect(embedded('anthropic', anthropicStream.overloadedEvent, SSE)).toEqual({
      evidence: {
        class: 'model_error',
        signal: { status: 500, type: 'overloaded_error', code: null, header: null, message: 'Overloaded' },
      },
      outcome: 'http_5xx',
      verdict: 'fail_over',
    });
  });

  it('a billing_error event is credit', () => {
    const chunk = 'event: error\ndata: {"type":"error","error":{"type":"billing_error","message":"x"}}\n\n';
    expect(embedded('anthropic', chunk, SSE)?.evidence.class).toBe('credit');
  });

  it('an error event whose data is cut short, or missing, is an error of unknown shape', () => {
    expect(embedded('anthropic', 'event: error\ndata: {"type":"error","error":{"type":"overl', SSE)).toMatchObject({
      evidence: UNKNOWN_500,
    });
    expect(embedded('anthropic', 'event: error\n', SSE)).toMatchObject({ evidence: UNKNOWN_500 });
  });

  it.each([
    ['message_start', anthropicStream.messageStart],
    ['a ping first', 'event: ping\ndata: {"type": "ping"}\n\nevent: error\ndata: {}\n\n'],
    ['an event line not yet complete', 'event: err'],
    ['an error event after the first', `${anthropicStream.messageStart}${anthropicStream.overloadedEvent}`],
  ])('%s: served', (_what, chunk) => {
    expect(embedded('anthropic', chunk, SSE)).toBeNull();
  });

  it('each family reads its own rule: the Anthropic family the event name, the OpenAI family the data', () => {
    // an Anthropic stream reads the event name only: data with an error key under another event name is served
    expect(embedded('anthropic', `data: ${openrouter.modelDown}\n\n`, SSE)).toBeNull();
    // the OpenAI family reads the data, whatever the event is called
    expect(embedded('openai', anthropicStream.overloadedEvent, SSE)?.evidence.class).toBe('model_error');
    expect(embedded('openai', 'event: error\ndata: {"type":"error","code":"x","message":"y"}\n\n', SSE)).toBeNull();
  });
});

describe('a compressed first chunk', () => {
  it('is decoded, whole or cut', () => {
    const headers = { ...SSE, 'content-encoding': 'gzip' };
    expect(embedded('anthropic', gzipSync(buf(anthropicStream.overloadedEvent)), headers)?.evidence.class).toBe('model_error');
    expect(
      embedded('openai', gzipSync(buf(openrouter.insufficientCredits)), { ...JSON_TYPE, 'content-encoding': 'gzip' })?.evidence.class,
    ).toBe('credit');
    const whole = gzipSync(buf(anthropicStream.messageStart));
    expect(embedded('anthropic', whole.subarray(0, whole.length - 4), headers)).toBeNull();
  });

  it('that cannot be decoded is served', () => {
    expect(embedded('openai', buf(openrouter.modelDown), { ...JSON_TYPE, 'content-encoding': 'gzip' })).toBeNull();
    expect(embedded('openai', buf(openrouter.modelDown), { ...JSON_TYPE, 'content-encoding': 'zstd' })).toBeNull();
  });
});
