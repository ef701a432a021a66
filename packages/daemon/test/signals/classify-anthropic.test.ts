import type { Signal } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/signals/evidence.js';
import { classify } from './classify-support.js';
import {
  anthropic,
  anthropicLimits,
  type Headers,
  JSON_TYPE,
  NEXT_MONTH,
  NOW,
  UNIFIED_RESET,
  UNIFIED_RESET_MS,
  unifiedRejected,
} from './fixtures.js';

/** The classification of Anthropic-family answers: every rule, in order. */

function signal(status: number, type: string | null, message: string | null, extra: Partial<Signal> = {}): Signal {
  return { status, type, code: null, header: null, message, ...extra };
}

const CREDIT_MESSAGE = JSON.parse(anthropic.creditTooLow).error.message as string;
const RATE_MESSAGE = JSON.parse(anthropic.accountRateLimit).error.message as string;

type Row = [rule: string, status: number, headers: Headers, body: string | null, expected: Evidence, outcome: string, verdict: string];

const ROWS: Row[] = [
  ['1. a 2xx is ok, its body unread', 200, JSON_TYPE, anthropic.overloaded, { class: 'ok' }, 'ok', 'serve'],
  ['1. any 2xx', 201, {}, null, { class: 'ok' }, 'ok', 'serve'],
  [
    '2. 402 billing_error',
    402,
    JSON_TYPE,
    anthropic.billing,
    { class: 'credit', signal: signal(402, 'billing_error', 'There is an issue with your billing details.') },
    'http_402',
    'fail_over',
  ],
  ['2. 402 with no body read', 402, {}, null, { class: 'credit', signal: signal(402, null, null) }, 'http_402', 'fail_over'],
  [
    '2. billing_error under another status',
    400,
    JSON_TYPE,
    anthropic.billing,
    { class: 'credit', signal: signal(400, 'billing_error', 'There is an issue with your billing details.') },
    'http_4xx',
    'fail_over',
  ],
  [
    '3. 400 credit balance is too low',
    400,
    JSON_TYPE,
    anthropic.creditTooLow,
    { class: 'credit', signal: signal(400, 'invalid_request_error', CREDIT_MESSAGE) },
    'http_4xx',
    'fail_over',
  ],
  [
    '4. 429 enforced_spend_limit_reached: until 00:00 UTC on the 1st of next month',
    429,
    JSON_TYPE,
    anthropic.spendLimit,
    {
      class: 'quota',
      cover: 'seat',
      resetAt: NEXT_MONTH,
      signal: signal(429, 'rate_limit_error', 'You have reached your monthly spend limit.', { code: 'enforced_spend_limit_reached' }),
    },
    'http_429',
    'fail_over',
  ],
  [
    '5. unified rejected, five_hour claim: the seat until the reset',
    429,
    unifiedRejected('five_hour'),
    anthropic.accountRateLimit,
    {
      class: 'quota',
      cover: 'seat',
      resetAt: UNIFIED_RESET_MS,
      signal: signal(429, 'rate_limit_error', RATE_MESSAGE, { header: `anthropic-ratelimit-unified-reset: ${UNIFIED_RESET}` }),
    },
    'http_429',
    'fail_over',
  ],
  [
    '5. unified rejected, seven_day_opus claim: this model only',
    429,
    unifiedRejected('seven_day_opus'),
    anthropic.accountRateLimit,
    {
      class: 'quota',
      cover: 'model',
      resetAt: UNIFIED_RESET_MS,
      signal: signal(429, 'rate_limit_error', RATE_MESSAGE, { header: `anthropic-ratelimit-unified-reset: ${UNIFIED_RESET}` }),
    },
    'http_429',
    'fail_over',
  ],
  [
    '6. extra usage: this request only',
    429,
    JSON_TYPE,
    anthropic.extraUsage,
    { class: 'request', signal: signal(429, 'rate_limit_error', 'Extra usage is required for long context requests.') },
    'http_429',
    'fail_over',
  ],
  [
    '7. 429 with retry-after',
    429,
    { ...JSON_TYPE, 'retry-after': '23' },
    anthropic.tokensPerMinute,
    {
      class: 'rate_limit',
      waitMs: 23_000,
      signal: signal(429, 'rate_limit_error', expect.stringMatching(/^Number of request tokens has exceeded.*…$/) as unknown as string, {
        header: 'retry-after: 23',
      }),
    },
    'http_429',
    'fail_over',
  ],
  [
    '7. 429 saying nothing usable: the floor',
    429,
    {},
    null,
    { class: 'rate_limit', waitMs: null, signal: signal(429, null, null) },
    'http_429',
    'fail_over',
  ],
  [
    '8. 529 overloaded_error',
    529,
    JSON_TYPE,
    anthropic.overloaded,
    { class: 'model_error', signal: signal(529, 'overloaded_error', 'Overloaded') },
    'http_5xx',
    'fail_over',
  ],
  ['8. 529 with no body', 529, {}, null, { class: 'model_error', signal: signal(529, null, null) }, 'http_5xx', 'fail_over'],
  [
    '8. overloaded_error under a 4xx status',
    409,
    JSON_TYPE,
    anthropic.overloaded,
    { class: 'model_error', signal: signal(409, 'overloaded_error', 'Overloaded') },
    'http_4xx',
    'fail_over',
  ],
  [
    '9. 401: the seat key is refused',
    401,
    JSON_TYPE,
    anthropic.authentication,
    { class: 'key_rejected', signal: signal(401, 'authentication_error', 'invalid x-api-key') },
    'http_4xx',
    'fail_over',
  ],
  [
    '9. 403',
    403,
    JSON_TYPE,
    anthropic.permission,
    {
      class: 'key_rejected',
      signal: signal(403, 'permission_error', 'Your API key does not have permission to use the specified resource.'),
    },
    'http_4xx',
    'fail_over',
  ],
  [
    '10. 500 api_error',
    500,
    JSON_TYPE,
    anthropic.apiError,
    { class: 'model_error', signal: signal(500, 'api_error', 'Internal server error') },
    'http_5xx',
    'fail_over',
  ],
  [
    '10. 504 timeout_error',
    504,
    JSON_TYPE,
    anthropic.timeoutError,
    { class: 'model_error', signal: signal(504, 'timeout_error', 'Request timed out') },
    'http_5xx',
    'fail_over',
  ],
  [
    '10. 400 the request is at fault',
    400,
    JSON_TYPE,
    anthropic.invalidRequest,
    { class: 'none', signal: signal(400, 'invalid_request_error', 'max_tokens: Field required') },
    'http_4xx',
    'pass_back',
  ],
  [
    '10. 404',
    404,
    JSON_TYPE,
    anthropic.notFound,
    { class: 'none', signal: signal(404, 'not_found_error', 'model: claude-nope') },
    'http_4xx',
    'pass_back',
  ],
  [
    '10. 413',
    413,
    JSON_TYPE,
    anthropic.tooLarge,
    { class: 'none', signal: signal(413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.') },
    'http_4xx',
    'pass_back',
  ],
  ['10. a 3xx a POST should never get', 302, {}, null, { class: 'none', signal: signal(302, null, null) }, 'http_4xx', 'pass_back'],
];

describe('Anthropic family classification', () => {
  it.each(ROWS)('%s', (_rule, status, headers, body, evidence, outcome, verdict) => {
    expect(classify('anthropic', status, body, headers)).toEqual({ evidence, outcome, verdict });
  });

  it.each(['rejected', 'rate_limited', 'blocked', 'REJECTED'])('5. unified status %s holds a quota', (status) => {
    expect(classify('anthropic', 429, anthropic.accountRateLimit, unifiedRejected('five_hour', status)).evidence.class).toBe('quota');
  });

  it.each([
    ['seven_day_opus', 'model'],
    ['seven_day_sonnet', 'model'],
    ['7d_sonnet', 'model'],
    ['five_hour', 'seat'],
    ['seven_day', 'seat'],
    ['seven_day_', 'seat'],
    ['7d_', 'seat'],
    ['', 'seat'],
  ])('5. representative claim %j covers the %s', (claim, cover) => {
    expect(classify('anthropic', 429, anthropic.accountRateLimit, unifiedRejected(claim)).evidence).toMatchObject({
      class: 'quota',
      cover,
    });
  });

  it('5. without a claim header the quota covers the seat', () => {
    const headers = unifiedRejected('x');
    delete headers['anthropic-ratelimit-unified-representative-claim'];
    expect(classify('anthropic', 429, anthropic.accountRateLimit, headers).evidence).toMatchObject({ class: 'quota', cover: 'seat' });
  });

  it.each(['allowed', 'allowed_warning', 'queueing_soft'])('5. unified status %s is no quota: the 429 is a rate limit', (status) => {
    expect(classify('anthropic', 429, anthropic.accountRateLimit, unifiedRejected('five_hour', status)).evidence.class).toBe('rate_limit');
  });

  it('3. the credit phrase is matched case-insensitively, only on a 400 invalid_request_error', () => {
    const shouted = anthropic.creditTooLow.replace('credit balance is too low', 'CREDIT BALANCE IS TOO LOW');
    expect(classify('anthropic', 400, shouted).evidence.class).toBe('credit');
    // the same words under another type or status are not the empty-balance answer
    expect(classify('anthropic', 400, anthropic.creditTooLow.replace('invalid_request_error', 'other_error')).evidence.class).toBe('none');
    expect(classify('anthropic', 404, anthropic.creditTooLow).evidence.class).toBe('none');
  });

  it('7. with no Retry-After, the reset headers set the deadline', () => {
    const headers = anthropicLimits({
      requestsRemaining: '0',
      requestsReset: new Date(NOW + 40_000).toISOString(),
      tokensRemaining: '12000',
      tokensReset: new Date(NOW + 5_000).toISOString(),
    });
    expect(classify('anthropic', 429, anthropic.tokensPerMinute, headers).evidence).toMatchObject({
      class: 'rate_limit',
      waitMs: 40_000,
      signal: { header: `anthropic-ratelimit-requests-reset: ${new Date(NOW + 40_000).toISOString()}` },
    });
  });
});

describe('Anthropic rules apply in order', () => {
  it('4 before 5: a spend cap with rejected unified headers lifts on the 1st, not at the window reset', () => {
    expect(classify('anthropic', 429, anthropic.spendLimit, unifiedRejected('five_hour')).evidence).toMatchObject({
      class: 'quota',
      resetAt: NEXT_MONTH,
    });
  });

  it('5 before 6: a 429 with both unified-reject headers and "extra usage" is the window, not the request', () => {
    expect(classify('anthropic', 429, anthropic.extraUsage, unifiedRejected('five_hour')).evidence).toMatchObject({
      class: 'quota',
      cover: 'seat',
      resetAt: UNIFIED_RESET_MS,
    });
  });

  it('6 before 7: "extra usage" with a Retry-After is still this request only', () => {
    expect(classify('anthropic', 429, anthropic.extraUsage, { ...JSON_TYPE, 'retry-after': '30' }).evidence.class).toBe('request');
  });

  it('2 before 8: a 402 says credit even with an overloaded_error body', () => {
    expect(classify('anthropic', 402, anthropic.overloaded).evidence.class).toBe('credit');
  });

  it('7 before 8: a 429 with an overloaded_error body is a rate limit', () => {
    expect(classify('anthropic', 429, anthropic.overloaded).evidence.class).toBe('rate_limit');
  });

  it('2 before 9: billing_error on a 401 is credit, not a rejected key', () => {
    expect(classify('anthropic', 401, anthropic.billing).evidence.class).toBe('credit');
  });

  it('8 before 9: overloaded_error on a 403 is a model error', () => {
    expect(classify('anthropic', 403, anthropic.overloaded).evidence.class).toBe('model_error');
  });
});
