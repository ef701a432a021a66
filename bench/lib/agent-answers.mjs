// The streamed answers Claude Code and Codex get, for the mock provider's
// agent cells (`x-mock-answer: claude-code | codex`): ~200 server-sent events
// each, written one event per write as the providers stream them, with the
// token usage where they report it (Anthropic: `message_start` and
// `message_delta`; Responses: `response.completed`) and the subscription
// usage-window headers both send on every answer.

const EVENTS = 200;
const CREATED = Math.floor(Date.now() / 1000);

const sse = (name, data) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
const word = (i) =>
  ['The ', 'parser ', 'now ', 'accepts ', '`--flag` ', 'without ', 'a ', 'value', '; ', 'see ', 'src/args.ts', '.\n'][i % 12];

function claudeCodeFrames() {
  const deltas = EVENTS - 6;
  const usage = {
    input_tokens: 4,
    cache_creation_input_tokens: 1520,
    cache_read_input_tokens: 26_384,
    output_tokens: 1,
    service_tier: 'standard',
  };
  const frames = [
    sse('message_start', {
      message: {
        id: 'msg_01BenchAgentAnswer0000000',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    }),
    sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    sse('ping', {}),
  ];
  for (let i = 0; i < deltas; i++) frames.push(sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: word(i) } }));
  frames.push(
    sse('content_block_stop', { index: 0 }),
    sse('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 4, cache_creation_input_tokens: 1520, cache_read_input_tokens: 26_384, output_tokens: deltas * 2 },
    }),
    sse('message_stop', {}),
  );
  return frames.map((f) => Buffer.from(f));
}

function codexFrames() {
  const deltas = EVENTS - 8;
  let sequence = 0;
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const base = {
    id: 'resp_bench0000',
    object: 'response',
    created_at: CREATED,
    status: 'in_progress',
    model: 'gpt-5',
    output: [],
    usage: null,
  };
  const at = { item_id: 'msg_bench0000', output_index: 0, content_index: 0 };
  const text = Array.from({ length: deltas }, (_, i) => word(i)).join('');
  const part = { type: 'output_text', text, annotations: [] };
  const item = { id: at.item_id, type: 'message', status: 'completed', role: 'assistant', content: [part] };
  const frames = [
    event('response.created', { response: base }),
    event('response.in_progress', { response: base }),
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }),
    event('response.content_part.added', { ...at, part: { ...part, text: '' } }),
  ];
  for (let i = 0; i < deltas; i++) frames.push(event('response.output_text.delta', { ...at, delta: word(i) }));
  frames.push(
    event('response.output_text.done', { ...at, text }),
    event('response.content_part.done', { ...at, part }),
    event('response.output_item.done', { output_index: 0, item }),
    event('response.completed', {
      response: {
        ...base,
        status: 'completed',
        output: [item],
        usage: {
          input_tokens: 9_120,
          input_tokens_details: { cached_tokens: 8_960 },
          output_tokens: deltas * 2,
          output_tokens_details: { reasoning_tokens: 64 },
          total_tokens: 9_120 + deltas * 2,
        },
      },
    }),
  );
  return frames.map((f) => Buffer.from(f));
}

/** Response headers, their reset times kept current (rebuilt at most once a second: the mock stays cheap). */
function headersEvery(build) {
  let at = 0;
  let cached = null;
  return () => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== at) {
      at = now;
      cached = build(now);
    }
    return cached;
  };
}

export const AGENT_ANSWERS = {
  'claude-code': {
    frames: claudeCodeFrames(),
    headers: headersEvery((now) => ({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': 'req_011CBenchAgentAnswer00000',
      'anthropic-organization-id': '6f3c1c2e-0000-4000-a000-000000000000',
      'anthropic-ratelimit-unified-status': 'allowed',
      'anthropic-ratelimit-unified-reset': String(now + 9000),
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-fallback-percentage': '0.5',
      'anthropic-ratelimit-unified-5h-status': 'allowed',
      'anthropic-ratelimit-unified-5h-reset': String(now + 9000),
      'anthropic-ratelimit-unified-5h-utilization': '0.42',
      'anthropic-ratelimit-unified-7d-status': 'allowed',
      'anthropic-ratelimit-unified-7d-reset': String(now + 400_000),
      'anthropic-ratelimit-unified-7d-utilization': '0.18',
      'anthropic-ratelimit-unified-overage-status': 'rejected',
      'anthropic-ratelimit-unified-overage-disabled-reason': 'org_level_disabled',
      'x-envoy-upstream-service-time': '812',
      'cf-cache-status': 'DYNAMIC',
      'x-robots-tag': 'none',
      server: 'cloudflare',
      'cf-ray': '98a1b2c3d4e5f607-FRA',
    })),
  },
  codex: {
    frames: codexFrames(),
    headers: headersEvery(() => ({
      'content-type': 'text/event-stream; charset=utf-8',
      'x-request-id': 'req_bench0000000000000000',
      'openai-processing-ms': '412',
      'x-codex-primary-used-percent': '12',
      'x-codex-primary-window-minutes': '300',
      'x-codex-primary-reset-after-seconds': '9000',
      'x-codex-secondary-used-percent': '3',
      'x-codex-secondary-window-minutes': '10080',
      'x-codex-secondary-reset-after-seconds': '400000',
      'x-codex-primary-over-secondary-limit-percent': '0',
      server: 'cloudflare',
      'cf-ray': '98a1b2c3d4e5f608-FRA',
    })),
  },
};
