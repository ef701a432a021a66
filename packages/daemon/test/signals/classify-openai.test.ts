import type { Signal } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/signals/evidence.js';
import { classify } from './classify-support.js';
import { CODEX_HEADERS, type Headers, JSON_TYPE, MAX_COOLDOWN_MS, NOW, openai, openaiLimits, openrouter, SEAT_KEY } from './fixtures.js';

/** The classification of OpenAI-family answers: every rule, in order. */

function signal(status: number, type: string | null, code: string | null, message: string | null, header: string | null = null): Signal {
  return { status, type, code, header, message };
}

const message = (body: string): string => {
  const doc = JSON.parse(body);
  return (Array.isArray(doc) ? doc[0] : doc).error.message;
};

/** 143h4m52.73s */
const GEMINI_DAILY_MS = (143 * 3600 + 4 * 60 + 52.73) * 1000;

type Row = [rule: string, status: number, headers: Headers, body: string | null, expected: Evidence, outcome: string, verdict: string];

const ROWS: Row[] = [
  ['1. a 2xx is ok, its body unread', 200, JSON_TYPE, openai.insufficientQuota, { class: 'ok' }, 'ok', 'serve'],
  [
    '2. 402 (OpenRouter out of credit)',
    402,
    JSON_TYPE,
    openrouter.insufficientCredits,
    { class: 'credit', signal: signal(402, null, '402', message(openrouter.insufficientCredits)) },
    'http_402',
    'fail_over',
  ],
  [
    '3. 429 insufficient_quota',
    429,
    JSON_TYPE,
    openai.insufficientQuota,
    { class: 'credit', signal: signal(429, 'insufficient_quota', 'insufficient_quota', message(openai.insufficientQuota)) },
    'http_429',
    'fail_over',
  ],
  [
    '4. Codex usage_limit_reached: resets_at wins over resets_in_seconds',
    429,
    CODEX_HEADERS,
    openai.codexUsageLimit,
    {
      class: 'quota',
      cover: 'seat',
      resetAt: 1_777_936_568_000,
      signal: signal(429, 'usage_limit_reached', null, 'The usage limit has been reached'),
    },
    'http_429',
    'fail_over',
  ],
  [
    '4. Codex usage_limit_reached with resets_in_seconds only',
    429,
    JSON_TYPE,
    openai.codexUsageLimitInSecondsOnly,
    {
      class: 'quota',
      cover: 'seat',
      resetAt: NOW + 13_872_000,
      signal: signal(429, 'usage_limit_reached', null, 'The usage limit has been reached'),
    },
    'http_429',
    'fail_over',
  ],
  [
    '5. Gemini RESOURCE_EXHAUSTED, a day-scale RetryInfo (one-element array): quota until now + delay',
    429,
    JSON_TYPE,
    openai.geminiDaily,
    {
      class: 'quota',
      cover: 'seat',
      resetAt: NOW + GEMINI_DAILY_MS,
      signal: signal(429, 'RESOURCE_EXHAUSTED', '429', message(openai.geminiDaily)),
    },
    'http_429',
    'fail_over',
  ],
  [
    '5. Gemini RESOURCE_EXHAUSTED, 30s: a rate limit with that deadline',
    429,
    JSON_TYPE,
    openai.geminiPerMinute,
    {
      class: 'rate_limit',
      waitMs: 30_000,
      signal: signal(429, 'RESOURCE_EXHAUSTED', '429', 'Resource has been exhausted (e.g. check quota).'),
    },
    'http_429',
    'fail_over',
  ],
  [
    '6. 429 rate_limit_exceeded with retry-after-ms',
    429,
    { ...JSON_TYPE, 'retry-after-ms': '120', 'retry-after': '1' },
    openai.rateLimitExceeded,
    {
      class: 'rate_limit',
      waitMs: 120,
      signal: signal(429, 'requests', 'rate_limit_exceeded', message(openai.rateLimitExceeded), 'retry-after-ms: 120'),
    },
    'http_429',
    'fail_over',
  ],
  [
    '6. 429 slow_down',
    429,
    JSON_TYPE,
    openai.slowDown,
    { class: 'rate_limit', waitMs: null, signal: signal(429, 'rate_limit_error', 'slow_down', 'Please slow down.') },
    'http_429',
    'fail_over',
  ],
  [
    '7. 401 invalid_api_key: the seat key is refused',
    401,
    JSON_TYPE,
    openai.invalidKey('sk-proj-****abcd'),
    {
      class: 'key_rejected',
      signal: signal(401, 'invalid_request_error', 'invalid_api_key', message(openai.invalidKey('sk-proj-****abcd'))),
    },
    'http_4xx',
    'fail_over',
  ],
  ['7. 403', 403, {}, null, { class: 'key_rejected', signal: signal(403, null, null, null) }, 'http_4xx', 'fail_over'],
  [
    '8. 503 server_is_overloaded',
    503,
    JSON_TYPE,
    openai.serverOverloaded,
    {
      class: 'model_error',
      signal: signal(503, 'server_error', 'server_is_overloaded', 'The server is overloaded. Please try again later.'),
    },
    'http_5xx',
    'fail_over',
  ],
  ['8. 500 with no body', 500, {}, null, { class: 'model_error', signal: signal(500, null, null, null) }, 'http_5xx', 'fail_over'],
  [
    '8. 400 context_length_exceeded: the request is at fault',
    400,
    JSON_TYPE,
    openai.contextTooLong,
    { class: 'none', signal: signal(400, 'invalid_request_error', 'context_length_exceeded', message(openai.contextTooLong)) },
    'http_4xx',
    'pass_back',
  ],
  ['8. 422', 422, {}, null, { class: 'none', signal: signal(422, null, null, null) }, 'http_4xx', 'pass_back'],
];

describe('OpenAI family classification', () => {
  it.each(ROWS)('%s', (_rule, status, headers, body, evidence, outcome, verdict) => {
    expect(classify('openai', status, body, headers)).toEqual({ evidence, outcome, verdict });
  });

  it.each([
    'credit_balance_exhausted',
    'organization_spend_limit_exceeded',
    'project_spend_limit_exceeded',
    'organization_usage_limit_exceeded',
  ])('3. code %s is credit', (code) => {
    expect(classify('openai', 429, openai.quotaCode(code)).evidence).toMatchObject({
      class: 'credit',
      signal: { type: 'insufficient_quota', code },
    });
    // the code alone decides, whatever the type says
    expect(classify('openai', 429, openai.quotaCode(code).replace('"insufficient_quota"', '"billing"')).evidence.class).toBe('credit');
  });

  it('3. insufficient_quota by type alone or by code alone, on any 4xx', () => {
    expect(classify('openai', 429, '{"error":{"message":"quota","type":"insufficient_quota","code":null}}').evidence.class).toBe('credit');
    expect(
      classify('openai', 400, '{"error":{"message":"quota","type":"invalid_request_error","code":"insufficient_quota"}}').evidence.class,
    ).toBe('credit');
    // a 5xx is not a 4xx: the status rules decide
    expect(classify('openai', 500, openai.insufficientQuota).evidence.class).toBe('model_error');
  });

  it('4. usage_limit_reached with no numeric reset is a plain rate limit', () => {
    const body =
      '{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","resets_at":"soon","resets_in_seconds":-5}}';
    expect(classify('openai', 429, body).evidence).toMatchObject({ class: 'rate_limit', waitMs: null });
  });

  it('5. a delay of exactly max_cooldown is a rate limit; a hair more is a quota', () => {
    const at = (delay: string) => openai.geminiPerMinute.replace('"30s"', JSON.stringify(delay));
    expect(classify('openai', 429, at(`${MAX_COOLDOWN_MS / 1000}s`)).evidence).toMatchObject({
      class: 'rate_limit',
      waitMs: MAX_COOLDOWN_MS,
    });
    expect(classify('openai', 429, at(`${MAX_COOLDOWN_MS / 1000}.001s`)).evidence).toMatchObject({
      class: 'quota',
      cover: 'seat',
      resetAt: NOW + MAX_COOLDOWN_MS + 1,
    });
  });

  it('5. the RetryInfo need not be the first detail, and a {seconds, nanos} delay is read too', () => {
    const body =
      '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"x"},{"retryDelay":{"seconds":"12","nanos":500000000}}]}}';
    expect(classify('openai', 429, body).evidence).toMatchObject({ class: 'rate_limit', waitMs: 12_500 });
  });

  it('5. a RetryInfo that does not parse falls through to rule 6 (the headers)', () => {
    const body = openai.geminiPerMinute.replace('"30s"', '"soon"');
    expect(classify('openai', 429, body, { ...JSON_TYPE, 'retry-after': '7' }).evidence).toMatchObject({
      class: 'rate_limit',
      waitMs: 7_000,
    });
  });

  it('6. with no Retry-After, the x-ratelimit reset headers set the deadline', () => {
    const headers = openaiLimits({ requestsRemaining: '0', requestsReset: '120ms', tokensRemaining: '0', tokensReset: '6m0s' });
    expect(classify('openai', 429, openai.rateLimitExceeded, headers).evidence).toMatchObject({
      class: 'rate_limit',
      waitMs: 360_000,
      signal: { header: 'x-ratelimit-reset-tokens: 6m0s' },
    });
  });

  it('7. the key in an invalid_api_key message never reaches the signal', () => {
    const e = classify('openai', 401, openai.invalidKey(SEAT_KEY)).evidence;
    expect(e.class).toBe('key_rejected');
    expect(JSON.stringify(e)).not.toContain(SEAT_KEY);
    expect(e).toMatchObject({ signal: { message: expect.stringContaining('Incorrect API key provided: [redacted].') } });
  });
});

describe('OpenAI rules apply in order', () => {
  it('2 before 3: a 402 is credit whatever the body', () => {
    expect(classify('openai', 402, openai.slowDown).evidence.class).toBe('credit');
  });

  it('3 before 4: insufficient_quota wins over a usage-limit shape', () => {
    const body = '{"error":{"type":"usage_limit_reached","code":"insufficient_quota","resets_at":1777936568}}';
    expect(classify('openai', 429, body).evidence.class).toBe('credit');
  });

  it('3 before 7: an exhausted account on a 403 is credit, not a rejected key', () => {
    expect(classify('openai', 403, openai.insufficientQuota).evidence.class).toBe('credit');
  });

  it('4 and 5 need a 429: the same bodies under a 500 are model errors', () => {
    expect(classify('openai', 500, openai.codexUsageLimit).evidence.class).toBe('model_error');
    expect(classify('openai', 503, openai.geminiDaily).evidence.class).toBe('model_error');
  });

  it('the Anthropic-only rules do not apply: a 529 is a 5xx, billing_error under a 400 is the request', () => {
    expect(classify('openai', 529, '{"error":{"type":"overloaded_error","message":"Overloaded"}}').evidence.class).toBe('model_error');
    expect(classify('openai', 400, '{"type":"error","error":{"type":"billing_error","message":"x"}}').evidence.class).toBe('none');
    expect(classify('openai', 429, '{"error":{"type":"rate_limit_error","message":"Extra usage is required"}}').evidence.class).toBe(
      'rate_limit',
    );
  });
});
