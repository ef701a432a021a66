import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import type { Family } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { classifyAnswer } from '../../src/signals/classify.js';
import type { Evidence } from '../../src/signals/evidence.js';
import { classify } from './classify-support.js';
import {
  anthropic,
  anthropicLimits,
  buf,
  JSON_TYPE,
  LIMITS,
  NOW,
  OPENAI_KEY,
  openai,
  openaiLimits,
  SEAT_KEY,
  SECRETS,
  unifiedRejected,
} from './fixtures.js';

/** What the classifier does with bodies and values it cannot trust. */

/** `body` padded with trailing spaces (still valid JSON) to exactly `size` bytes. */
function padded(body: string, size: number): Buffer {
  return Buffer.concat([buf(body), Buffer.alloc(size - Buffer.byteLength(body), 0x20)]);
}

function finiteDeadlines(e: Evidence): void {
  if (e.class === 'rate_limit' && e.waitMs !== null) expect(Number.isFinite(e.waitMs) && e.waitMs > 0).toBe(true);
  if (e.class === 'quota') expect(Number.isFinite(e.resetAt)).toBe(true);
}

describe('bodies', () => {
  it('reads a body of exactly 65,536 bytes, and classifies a larger one by its status alone', () => {
    expect(classify('anthropic', 400, padded(anthropic.creditTooLow, 65_536)).evidence.class).toBe('credit');
    expect(classify('anthropic', 400, padded(anthropic.creditTooLow, 65_537)).evidence).toEqual({
      class: 'none',
      signal: { status: 400, type: null, code: null, header: null, message: null },
    });
    expect(classify('openai', 429, padded(openai.insufficientQuota, 65_537)).evidence).toMatchObject({ class: 'rate_limit', waitMs: null });
  });

  it('reads the error from a one-element array, in both families, and from no longer array', () => {
    expect(classify('anthropic', 400, `[${anthropic.creditTooLow}]`).evidence.class).toBe('credit');
    expect(classify('openai', 429, ` [ ${openai.insufficientQuota} ] `).evidence.class).toBe('credit');
    expect(classify('openai', 429, `[${openai.insufficientQuota},${openai.insufficientQuota}]`).evidence.class).toBe('rate_limit');
    expect(classify('openai', 429, '[]').evidence.class).toBe('rate_limit');
  });

  it.each([
    ['an HTML error page', '<html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>'],
    ['truncated JSON', anthropic.creditTooLow.slice(0, 80)],
    ['an error that is a string', '{"error":"credit balance is too low"}'],
    ['an error that is an array', '{"error":[{"type":"billing_error"}]}'],
    ['JSON null', 'null'],
    ['an empty body', ''],
    ['a body that is only a BOM', '\ufeff'],
    ['fields of the wrong types', '{"error":{"type":7,"message":{"text":"credit balance is too low"},"code":[1]}}'],
    ['a prototype key', '{"__proto__":{"error":{"type":"billing_error"}}}'],
  ])('%s: classified by status alone, never thrown', (_what, body) => {
    expect(classify('anthropic', 400, body).evidence.class).toBe('none');
    expect(classify('anthropic', 429, body).evidence.class).toBe('rate_limit');
    expect(classify('openai', 429, body).evidence.class).toBe('rate_limit');
  });

  it('reads a body behind a BOM', () => {
    expect(classify('anthropic', 400, `\ufeff${anthropic.creditTooLow}`).evidence.class).toBe('credit');
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
    ['GZIP', gzipSync],
  ] as const)('decodes a %s body before reading it (SDKs ask for compressed answers)', (encoding, compress) => {
    const headers = { ...JSON_TYPE, 'content-encoding': encoding };
    expect(classify('anthropic', 400, compress(buf(anthropic.creditTooLow)), headers).evidence.class).toBe('credit');
  });

  it('classifies by status alone a body it cannot decode: unknown or stacked encodings, corrupt data, a bomb', () => {
    const body = gzipSync(buf(anthropic.creditTooLow));
    expect(classify('anthropic', 400, body, { 'content-encoding': 'zstd' }).evidence.class).toBe('none');
    expect(classify('anthropic', 400, body, { 'content-encoding': 'gzip, br' }).evidence.class).toBe('none');
    expect(classify('anthropic', 400, buf(anthropic.creditTooLow), { 'content-encoding': 'gzip' }).evidence.class).toBe('none');
    // 8 MB of spaces after the error, compressed to a few KB: more than 65,536 bytes once decoded
    const bomb = gzipSync(padded(anthropic.creditTooLow, 8 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(65_536);
    expect(classify('anthropic', 400, bomb, { 'content-encoding': 'gzip' }).evidence.class).toBe('none');
  });
});

describe('hostile deadlines and resets: never thrown, never NaN or Infinity', () => {
  const unified = (reset: string) => ({ ...unifiedRejected('five_hour'), 'anthropic-ratelimit-unified-reset': reset });

  it.each([
    ['negative', '-5'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['exponent', '1e10'],
    ['hex', '0x7fffffff'],
    ['a date', 'Mon, 01 Dec 2025 12:00:00 GMT'],
    ['empty', ''],
  ])('an unusable unified reset (%s) holds no quota: the 429 is a rate limit', (_what, reset) => {
    const e = classify('anthropic', 429, anthropic.accountRateLimit, unified(reset)).evidence;
    expect(e.class).toBe('rate_limit');
    finiteDeadlines(e);
  });

  it.each([
    ['20 digits', '99999999999999999999', Number.MAX_SAFE_INTEGER],
    ['400 digits', '9'.repeat(400), Number.MAX_SAFE_INTEGER],
    ['the year 9999', '253402300799', 253_402_300_799_000],
    ['zero (already past)', '0', 0],
  ])('a numeric unified reset, however absurd (%s), is a finite quota the engine clamps', (_what, reset, resetAt) => {
    expect(classify('anthropic', 429, anthropic.accountRateLimit, unified(reset)).evidence).toMatchObject({ class: 'quota', resetAt });
  });

  it.each([
    ['negative', '-1', '-1', null],
    ['NaN strings', '"NaN"', '"NaN"', null],
    ['20 digits', '99999999999999999999', 'null', Number.MAX_SAFE_INTEGER],
    ['1e400 (Infinity once parsed)', '1e400', '60', NOW + 60_000],
    ['the year 9999', '253402300799', 'null', 253_402_300_799_000],
  ])('Codex resets_at %s', (_what, resetsAt, inSeconds, resetAt) => {
    const body = `{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","resets_at":${resetsAt},"resets_in_seconds":${inSeconds}}}`;
    const e = classify('openai', 429, body).evidence;
    finiteDeadlines(e);
    if (resetAt === null) expect(e.class).toBe('rate_limit');
    else expect(e).toMatchObject({ class: 'quota', resetAt });
  });

  it.each([
    ['negative', '-30s', 'rate_limit'],
    ['NaN', 'NaNs', 'rate_limit'],
    ['no unit', '30', 'rate_limit'],
    ['20 digits of hours', '99999999999999999999h', 'quota'],
    ['400 digits of seconds', `${'9'.repeat(400)}s`, 'quota'],
    ['zero', '0s', 'rate_limit'],
  ])('a Gemini retryDelay %s', (_what, delay, expected) => {
    const body = openai.geminiPerMinute.replace('"30s"', JSON.stringify(delay));
    const e = classify('openai', 429, body).evidence;
    expect(e.class).toBe(expected);
    finiteDeadlines(e);
    if (e.class === 'rate_limit') expect(e.waitMs).toBeNull();
  });

  it.each([
    ['year 9999', '9999-12-31T23:59:59Z', 253_402_300_799_000 - NOW],
    ['month 13', '2025-13-01T00:00:00Z', 5_000],
    ['not a time', 'tomorrow', 5_000],
    ['negative year', '-002025-12-01T11:00:00Z', 5_000],
  ])('an Anthropic reset header %s', (_what, reset, waitMs) => {
    const headers = anthropicLimits({
      requestsRemaining: '0',
      requestsReset: reset,
      tokensRemaining: '9',
      tokensReset: new Date(NOW + 5_000).toISOString(),
    });
    const e = classify('anthropic', 429, anthropic.tokensPerMinute, headers).evidence;
    expect(e).toMatchObject({ class: 'rate_limit', waitMs });
  });

  it.each([
    ['negative', '-1s', 5_000],
    ['exponent', '1e9s', 5_000],
    ['20 digits of hours', '99999999999999999999h', Number.MAX_SAFE_INTEGER],
    ['400 digits', `${'9'.repeat(400)}s`, Number.MAX_SAFE_INTEGER],
    ['Azure -1', '-1', 5_000],
  ])('an OpenAI reset header %s', (_what, reset, waitMs) => {
    const headers = openaiLimits({ requestsRemaining: '0', requestsReset: reset, tokensRemaining: '9', tokensReset: '5s' });
    expect(classify('openai', 429, openai.rateLimitExceeded, headers).evidence).toMatchObject({ class: 'rate_limit', waitMs });
  });
});

describe('secrets and control characters never reach a signal', () => {
  it.each([
    ['anthropic', 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key: ${SEAT_KEY}"}}`],
    ['anthropic', 400, `{"type":"error","error":{"type":"${SEAT_KEY}","message":"bad"}}`],
    ['openai', 401, openai.invalidKey(OPENAI_KEY)],
    ['openai', 429, `{"error":{"type":"insufficient_quota","code":"${OPENAI_KEY}","message":"no"}}`],
    ['openai', 500, `{"error":{"message":"key ${SEAT_KEY.slice(0, 20)}\\u0000${SEAT_KEY.slice(20)} leaked"}}`],
  ] as Array<[Family, number, string]>)('%s %d: an echoed seat key is redacted', (family, status, body) => {
    const text = JSON.stringify(classify(family, status, body).evidence);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('a secret in the header that set the deadline is redacted too', () => {
    const answer = { family: 'openai' as const, status: 429, headers: { 'retry-after': '5' }, body: null, now: NOW, secrets: ['5'] };
    expect(classifyAnswer(answer, LIMITS).evidence).toMatchObject({
      class: 'rate_limit',
      waitMs: 5_000,
      signal: { header: 'retry-after: [redacted]' },
    });
  });

  it('terminal escapes and line breaks in a message are removed', () => {
    const body = '{"error":{"type":"server_error","message":"bad\\u001b[2J\\u001b]0;pwned\\u0007\\r\\nthing\\u202e"}}';
    expect(classify('openai', 500, body).evidence).toMatchObject({ signal: { message: 'bad[2J]0;pwned thing' } });
  });
});

describe('the success path', () => {
  it('returns for a 2xx without reading headers or body', () => {
    const untouchable = new Proxy(
      {},
      { get: () => expect.unreachable('headers read on a 2xx'), ownKeys: () => expect.unreachable('headers walked') },
    );
    const body = new Proxy(Buffer.alloc(0), { get: () => expect.unreachable('body read on a 2xx') });
    const answer = { family: 'openai' as const, status: 200, headers: untouchable, body, now: NOW, secrets: SECRETS };
    expect(classifyAnswer(answer, LIMITS)).toEqual({ evidence: { class: 'ok' }, outcome: 'ok', verdict: 'serve' });
  });
});

describe('rules read the right family', () => {
  it("an Anthropic seat's reset headers are not read for an OpenAI-family answer, nor the other way round", () => {
    const anthropicHeaders = anthropicLimits({
      requestsRemaining: '0',
      requestsReset: new Date(NOW + 40_000).toISOString(),
      tokensRemaining: '1',
      tokensReset: new Date(NOW + 40_000).toISOString(),
    });
    expect(classify('openai', 429, null, anthropicHeaders).evidence).toMatchObject({ waitMs: null });
    expect(
      classify(
        'anthropic',
        429,
        null,
        openaiLimits({ requestsRemaining: '0', requestsReset: '40s', tokensRemaining: '1', tokensReset: '40s' }),
      ).evidence,
    ).toMatchObject({
      waitMs: null,
    });
  });
});
