/**
 * Upstream answers as real providers send them, from the providers' own
 * documentation and issue threads. Bodies quoted there are copied exactly;
 * where a source gives only the shape (a message
 * cut with "…", a code without its body), the wording is marked "shape only".
 */

/** 2025-12-01T11:00:00Z: the spec's unified reset (1764590000) is 53m20s later, the spend cap lifts 2026-01-01. */
export const NOW = Date.UTC(2025, 11, 1, 11, 0, 0);
export const NEXT_MONTH = Date.UTC(2026, 0, 1);
export const MAX_COOLDOWN_MS = 900_000;
export const LIMITS = { maxCooldownMs: MAX_COOLDOWN_MS };

/** A seat key some providers echo back in an auth error: it must never reach a signal. */
export const SEAT_KEY = 'sk-ant-api03-Zq8vTn3Wm5Xr7Yp2Kd9Lf4Hs6Jc1Bg0Nt-EXAMPLEONLY';
export const OPENAI_KEY = 'sk-proj-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz1Xc3Vb5-EXAMPLEONLY';
export const SECRETS = [SEAT_KEY, OPENAI_KEY];

export type Headers = Record<string, string | string[] | undefined>;

export const JSON_TYPE: Headers = { 'content-type': 'application/json' };

// ── Anthropic ─────────────────────────────────────────────────────────────

export const anthropic = {
  /** 529: claude-code#5184 */
  overloaded: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  /** 400 out of prepaid credit: anthropic-sdk-typescript#618, claude-code#4207 */
  creditTooLow:
    '{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},"request_id":"req_011CbrFTcXhtiMzr3s6EocF7"}',
  /** 402 billing_error (platform errors page); shape only */
  billing:
    '{"type":"error","error":{"type":"billing_error","message":"There is an issue with your billing details."},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
  /** 429 tier monthly spend cap, no retry-after: `error.details.error_code`; message shape only */
  spendLimit:
    '{"type":"error","error":{"type":"rate_limit_error","message":"You have reached your monthly spend limit.","details":{"error_code":"enforced_spend_limit_reached"}},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
  /** 429 "usage limit reached" through Claude Code: claude-code#7157, #10188 */
  accountRateLimit:
    '{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account\'s rate limit. Please try again later."},"request_id":"req_011CS3bcR6VZvXhJ3T8QwD9E"}',
  /** 429 for the 1M-context beta: claude-code#39948, #42616 */
  extraUsage:
    '{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."},"request_id":"req_011CZf8TJf84hAUziB6LuRoc"}',
  /** 429 per-minute limit (Anthropic's own wording) */
  tokensPerMinute:
    '{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}}',
  apiError: '{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
  timeoutError: '{"type":"error","error":{"type":"timeout_error","message":"Request timed out"}}',
  authentication:
    '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
  permission:
    '{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}',
  invalidRequest:
    '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}',
  notFound: '{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}',
  tooLarge: '{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
};

/** The spec's example reset, epoch seconds. */
export const UNIFIED_RESET = '1764590000';
export const UNIFIED_RESET_MS = 1_764_590_000_000;

/** A Claude subscription that used its window (as subrouter#24 and better-ccflare's tests quote it). */
export function unifiedRejected(claim: string, status = 'rejected'): Headers {
  return {
    'content-type': 'application/json',
    'anthropic-ratelimit-unified-status': status,
    'anthropic-ratelimit-unified-reset': UNIFIED_RESET,
    'anthropic-ratelimit-unified-representative-claim': claim,
    'anthropic-ratelimit-unified-5h-status': 'rejected',
    'anthropic-ratelimit-unified-5h-reset': UNIFIED_RESET,
    'anthropic-ratelimit-unified-5h-utilization': '1.01',
    'anthropic-ratelimit-unified-7d-status': 'allowed',
    'anthropic-ratelimit-unified-7d-reset': '1764979200',
    'anthropic-ratelimit-unified-7d-utilization': '0.42',
    'anthropic-ratelimit-unified-fallback-percentage': '0.5',
    'anthropic-ratelimit-unified-overage-status': 'rejected',
    'anthropic-ratelimit-unified-overage-disabled-reason': 'out_of_credits',
    'x-should-retry': 'true',
  };
}

/** The API's standard limit headers (RFC 3339 resets, as in the AWS page and the tidyllm capture). */
export function anthropicLimits(parts: {
  requestsRemaining: string;
  requestsReset: string;
  tokensRemaining: string;
  tokensReset: string;
}): Headers {
  return {
    'content-type': 'application/json',
    'anthropic-ratelimit-requests-limit': '50',
    'anthropic-ratelimit-requests-remaining': parts.requestsRemaining,
    'anthropic-ratelimit-requests-reset': parts.requestsReset,
    'anthropic-ratelimit-tokens-limit': '40000',
    'anthropic-ratelimit-tokens-remaining': parts.tokensRemaining,
    'anthropic-ratelimit-tokens-reset': parts.tokensReset,
  };
}

export const anthropicStream = {
  /** an Anthropic stream that opens with an error event */
  overloadedEvent: 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
  /** a text delta, as the Messages API streams one (the text JSON-escaped, as every model text is) */
  textDelta: (text: string) =>
    `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`,
  messageStart:
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","content":[],"model":"claude-sonnet-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1}}}\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
};

// ── OpenAI family (OpenAI, Codex, OpenRouter, Gemini) ─────────────────────

export const openai = {
  /** 429 insufficient_quota: ShellGPT#23 */
  insufficientQuota:
    '{"error":{"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}',
  /** 429 with the current codes under type insufficient_quota (Microsoft's Dev Proxy page); messages shape only */
  quotaCode: (code: string) =>
    `{"error":{"message":"Your organization has no remaining quota.","type":"insufficient_quota","param":null,"code":"${code}"}}`,
  /** 429 Codex subscription window: pi#4172, codex-proxy#65 */
  codexUsageLimit:
    '{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_at":1777936568,"resets_in_seconds":13872}}',
  codexUsageLimitInSecondsOnly:
    '{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_in_seconds":13872}}',
  /** 429 Gemini RESOURCE_EXHAUSTED, wrapped in a one-element array; the dev.to page */
  geminiDaily:
    '[{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. Please retry in 10h17m5.72s","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier","quotaValue":"0"}]},{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Learn more about Gemini API quotas","url":"https://ai.google.dev/gemini-api/docs/rate-limits"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"143h4m52.73s"}]}}]',
  geminiPerMinute:
    '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"30s"}]}}',
  /** 429 rate_limit_exceeded (RPM/TPM) */
  rateLimitExceeded:
    '{"error":{"message":"Rate limit reached for gpt-4o in organization org-abc123 on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.","type":"requests","param":null,"code":"rate_limit_exceeded"}}',
  slowDown: '{"error":{"message":"Please slow down.","type":"rate_limit_error","param":null,"code":"slow_down"}}',
  serverOverloaded:
    '{"error":{"message":"The server is overloaded. Please try again later.","type":"server_error","param":null,"code":"server_is_overloaded"}}',
  invalidKey: (key: string) =>
    `{"error":{"message":"Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
  contextTooLong:
    '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}',
};

/** OpenAI's limit headers: Go-duration resets (thoughtbot; the OpenAI community thread). */
export function openaiLimits(parts: {
  requestsRemaining: string;
  requestsReset: string;
  tokensRemaining: string;
  tokensReset: string;
}): Headers {
  return {
    'content-type': 'application/json',
    'x-ratelimit-limit-requests': '500',
    'x-ratelimit-remaining-requests': parts.requestsRemaining,
    'x-ratelimit-reset-requests': parts.requestsReset,
    'x-ratelimit-limit-tokens': '30000',
    'x-ratelimit-remaining-tokens': parts.tokensRemaining,
    'x-ratelimit-reset-tokens': parts.tokensReset,
  };
}

/** Codex usage headers as the CLI receives them (lower-cased by undici). */
export const CODEX_HEADERS: Headers = {
  'content-type': 'application/json',
  'x-codex-primary-used-percent': '100',
  'x-codex-primary-window-minutes': '300',
  'x-codex-primary-reset-after-seconds': '13872',
  'x-codex-secondary-used-percent': '37.5',
  'x-codex-secondary-window-minutes': '10080',
  'x-codex-secondary-reset-at': '1777936568',
  'x-codex-credits-has-credits': 'false',
  'x-codex-credits-balance': '0',
};

/** OpenRouter's error shape; sent as HTTP 200 (body or first SSE data event) unless the request is invalid or out of credit. */
export const openrouter = {
  insufficientCredits:
    '{"error":{"code":402,"message":"Your account or API key has insufficient credits. Add more credits and retry the request.","metadata":{}}}',
  freeDailyLimit:
    '{"error":{"code":429,"message":"Rate limit exceeded: free-models-per-day","metadata":{"headers":{"X-RateLimit-Limit":"50","X-RateLimit-Remaining":"0","X-RateLimit-Reset":"1741305600000"}}}}',
  modelDown: '{"error":{"code":502,"message":"model is down","metadata":{"provider_name":"Example"}}}',
  noProvider: '{"error":{"code":503,"message":"No available model provider that meets your routing requirements"}}',
  badRequest: '{"error":{"code":400,"message":"Input required: specify \\"prompt\\" or \\"messages\\""}}',
};

/**
 * OpenAI-family streams that fail after they began. OpenRouter's mid-stream
 * error (its streaming docs: the error beside `choices`, finish_reason
 * `error`); the Responses API's `error` event and `response.failed` (API
 * reference examples, ids shortened), and a normal Responses event, whose
 * `error` is null.
 */
export const openaiStream = {
  chatDelta: (content: string) =>
    `data: ${JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', created: 1_741_290_958, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`,
  openrouterMidStream:
    'data: {"id":"cmpl-abc123","object":"chat.completion.chunk","created":1234567890,"model":"gpt-3.5-turbo","provider":"openai","error":{"code":"server_error","message":"Provider disconnected unexpectedly"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}\n\n',
  responsesCreated:
    'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1741290958,"status":"in_progress","error":null,"incomplete_details":null,"model":"gpt-5","output":[]}}\n\n',
  responsesDelta: (delta: string) =>
    `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', output_index: 0, content_index: 0, delta })}\n\n`,
  responsesCompleted:
    'event: response.completed\ndata: {"type":"response.completed","sequence_number":9,"response":{"id":"resp_1","object":"response","created_at":1741290958,"status":"completed","error":null,"incomplete_details":null,"model":"gpt-5"}}\n\n',
  responsesError:
    'event: error\ndata: {"type":"error","code":"ERR_SOMETHING","message":"Something went wrong","param":null,"sequence_number":5}\n\n',
  responsesFailed:
    'event: response.failed\ndata: {"type":"response.failed","sequence_number":5,"response":{"id":"resp_1","object":"response","created_at":1741290958,"status":"failed","error":{"code":"server_error","message":"The model failed to generate a response."},"incomplete_details":null,"model":"gpt-5"}}\n\n',
};

export function buf(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}
