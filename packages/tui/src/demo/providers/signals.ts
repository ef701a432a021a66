/**
 * What a simulated seat answers when the scenario says it is in trouble, in
 * the exact words real providers use (their documented bodies and headers),
 * so the demo shows what a real seat will:
 *
 * | trouble       | Anthropic                                              | OpenAI                                      |
 * |---------------|--------------------------------------------------------|---------------------------------------------|
 * | out of credit | 400 invalid_request_error "credit balance is too low"  | 429 insufficient_quota                      |
 * | window spent  | 429 rate_limit_error + unified-status rejected + reset | 429 usage_limit_reached + resets_at (Codex) |
 * | rate limited  | 429 rate_limit_error + retry-after                     | 429 rate_limit_exceeded + retry-after(-ms)  |
 * | overloaded    | 529 overloaded_error                                   | 503 server_is_overloaded                    |
 * | server error  | 500 api_error                                          | 500 server_error                            |
 *
 * Pure text builders: the server sends what they return.
 */
export type Family = 'anthropic' | 'openai';

export interface Refusal {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type Trouble =
  | { readonly kind: 'credit_out' }
  /** `resetAt`: epoch seconds the window resets; `resetInSecs`: real seconds until then */
  | { readonly kind: 'quota_out'; readonly resetAt: number; readonly resetInSecs: number }
  /** `retryAfterSecs`: real seconds */
  | { readonly kind: 'rate_limited'; readonly retryAfterSecs: number }
  | { readonly kind: 'server_error'; readonly status: number };

const JSON_TYPE = { 'content-type': 'application/json' };

function anthropicError(type: string, message: string, requestId: string): string {
  return JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId });
}

function openaiError(message: string, type: string, code: string | null): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

export const ANTHROPIC_CREDIT_MESSAGE =
  'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.';
export const ANTHROPIC_WINDOW_MESSAGE = "This request would exceed your account's rate limit. Please try again later.";
export const OPENAI_QUOTA_MESSAGE =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';

/** A Retry-After header value: delta-seconds, rounded up to the hundredth (`1.5`, `6`). */
export function retryAfterValue(secs: number): string {
  return String(Math.ceil(secs * 100) / 100);
}

export function refusal(family: Family, trouble: Trouble, requestId: string): Refusal {
  return family === 'anthropic' ? anthropicRefusal(trouble, requestId) : openaiRefusal(trouble);
}

function anthropicRefusal(trouble: Trouble, requestId: string): Refusal {
  switch (trouble.kind) {
    case 'credit_out':
      return { status: 400, body: anthropicError('invalid_request_error', ANTHROPIC_CREDIT_MESSAGE, requestId), headers: JSON_TYPE };
    case 'quota_out':
      return {
        status: 429,
        body: anthropicError('rate_limit_error', ANTHROPIC_WINDOW_MESSAGE, requestId),
        headers: {
          ...JSON_TYPE,
          'anthropic-ratelimit-unified-status': 'rejected',
          'anthropic-ratelimit-unified-reset': String(trouble.resetAt),
          'anthropic-ratelimit-unified-representative-claim': 'five_hour',
        },
      };
    case 'rate_limited':
      return {
        status: 429,
        body: anthropicError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.', requestId),
        headers: { ...JSON_TYPE, 'retry-after': retryAfterValue(trouble.retryAfterSecs) },
      };
    case 'server_error':
      return trouble.status === 529
        ? { status: 529, body: anthropicError('overloaded_error', 'Overloaded', requestId), headers: JSON_TYPE }
        : { status: trouble.status, body: anthropicError('api_error', 'Internal server error', requestId), headers: JSON_TYPE };
  }
}

function openaiRefusal(trouble: Trouble): Refusal {
  switch (trouble.kind) {
    case 'credit_out':
      return { status: 429, body: openaiError(OPENAI_QUOTA_MESSAGE, 'insufficient_quota', 'insufficient_quota'), headers: JSON_TYPE };
    case 'quota_out':
      return {
        status: 429,
        body: JSON.stringify({
          error: {
            type: 'usage_limit_reached',
            message: 'The usage limit has been reached',
            plan_type: 'plus',
            resets_at: trouble.resetAt,
            resets_in_seconds: Math.max(1, Math.round(trouble.resetInSecs)),
          },
        }),
        headers: JSON_TYPE,
      };
    case 'rate_limited':
      return {
        status: 429,
        body: openaiError('Rate limit reached for requests. Please try again later.', 'requests', 'rate_limit_exceeded'),
        headers: {
          ...JSON_TYPE,
          'retry-after': retryAfterValue(trouble.retryAfterSecs),
          'retry-after-ms': String(Math.ceil(trouble.retryAfterSecs * 1000)),
        },
      };
    case 'server_error':
      return trouble.status === 503
        ? {
            status: 503,
            body: openaiError('The server is overloaded. Please try again later.', 'server_error', 'server_is_overloaded'),
            headers: JSON_TYPE,
          }
        : {
            status: trouble.status,
            body: openaiError('The server had an error while processing your request. Sorry about that!', 'server_error', null),
            headers: JSON_TYPE,
          };
  }
}
