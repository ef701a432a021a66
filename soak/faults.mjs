/**
 * What a fake seat does with one request: answer well (the large majority),
 * or inject one of the faults the upstream-fault tests cover one by one. Every
 * behaviour writes to the raw node:http response and cleans its own timers
 * when the connection goes away, so a fault never keeps the soak itself alive.
 */

/** Runs `fn` after `ms` unless the response has closed by then. */
function later(res, ms, fn) {
  const timer = setTimeout(() => {
    if (!res.destroyed) fn();
  }, ms);
  res.once('close', () => clearTimeout(timer));
}

function sseChunks(provider, model, pieces) {
  if (provider === 'openai') {
    const chunk = (delta, finish) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-soak', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    return [
      chunk({ role: 'assistant', content: '' }, null),
      ...pieces.map((p) => chunk({ content: p }, null)),
      chunk({}, 'stop'),
      'data: [DONE]\n\n',
    ];
  }
  const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  return [
    event('message_start', {
      message: { id: 'msg_soak', type: 'message', role: 'assistant', model, content: [], usage: { input_tokens: 1, output_tokens: 0 } },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...pieces.map((p) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: pieces.length } }),
    event('message_stop', {}),
  ];
}

function wholeBody(provider, model, text) {
  return provider === 'openai'
    ? {
        id: 'chatcmpl-soak',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      }
    : {
        id: 'msg_soak',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 2 },
      };
}

function json(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Streams `chunks` with a pause before each; then ends (or runs `instead` at chunk `at`). */
function streamChunks(res, chunks, pauseMs, instead = null) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let i = 0;
  const step = () => {
    if (instead !== null && i === instead.at) return instead.run();
    if (i === chunks.length) return res.end();
    res.write(chunks[i++]);
    later(res, pauseMs, step);
  };
  step();
}

/** A raw HTTP response on the socket, bypassing ServerResponse (which would fix a lying length). */
function raw(res, head, body, end) {
  const bytes = `${head.join('\r\n')}\r\n\r\n${body}`;
  if (end) res.socket?.end(bytes);
  else res.socket?.write(bytes);
}

/** The well-behaved answer: a streamed or whole completion after a short, random delay. */
export function answerWell(_req, res, ctx) {
  const pieces = ['soak ', 'says ', 'hello'];
  later(res, ctx.random.int(2, 40), () => {
    if (ctx.stream) streamChunks(res, sseChunks(ctx.provider, ctx.model, pieces), ctx.random.int(5, 40));
    else json(res, 200, wholeBody(ctx.provider, ctx.model, pieces.join('')));
  });
}

/** Mostly hostile-but-short values (they clamp to the 1 s floor); now and then an enormous one (clamped to max_cooldown_secs). */
const RETRY_AFTER_VALUES = [
  ['garbage', 10],
  ['-5', 10],
  ['0', 10],
  ['0.0001', 10],
  ['1', 10],
  ['2', 10],
  ['NaN', 10],
  ['', 10],
  ['Wed, 21 Oct 2015 07:28:00 GMT', 10],
  ['9'.repeat(40), 2],
  ['Fri, 31 Dec 9999 23:59:59 GMT', 2],
];

/** name → [weight, behaviour]; weights are per attempt, in thousandths. Healthy answers make up the rest. */
export const FAULTS = {
  http_402: [6, (_req, res) => json(res, 402, { error: { message: 'credit balance is too low', type: 'billing' } })],
  http_429_hostile_retry_after: [
    6,
    (_req, res, ctx) =>
      json(
        res,
        429,
        { error: { message: 'rate limited', type: 'rate_limit' } },
        { 'retry-after': ctx.random.weighted(RETRY_AFTER_VALUES) },
      ),
  ],
  http_500: [30, (_req, res) => json(res, 500, { error: { message: 'overloaded', type: 'server_error' } })],
  http_400_passed_back: [8, (_req, res) => json(res, 400, { error: { message: 'max_tokens: too large', type: 'invalid_request_error' } })],
  http_401: [4, (_req, res) => json(res, 401, { error: { message: 'invalid x-api-key', type: 'authentication_error' } })],
  never_sends_headers: [8, () => {}],
  headers_then_silence: [5, (_req, res) => (res.writeHead(200, { 'content-type': 'text/event-stream' }), res.flushHeaders())],
  stalls_mid_stream: [
    8,
    (_req, res, ctx) => {
      const chunks = sseChunks(ctx.provider, ctx.model, ['stall']);
      res.writeHead(200, { 'content-type': ctx.stream ? 'text/event-stream' : 'application/json' });
      res.write(ctx.stream ? chunks[0] : '{"id":"partial",');
    },
  ],
  invalid_sse: [
    8,
    (_req, res) => (
      res.writeHead(200, { 'content-type': 'text/event-stream' }), res.end('this is not SSE\n\u0000{{{\ndata-without-colon\n\n')
    ),
  ],
  content_length_too_short: [
    8,
    (_req, res) =>
      raw(
        res,
        ['HTTP/1.1 200 OK', 'content-type: application/json', 'content-length: 11'],
        '{"ok":true}EXTRA-GARBAGE-AFTER-THE-BODY',
        false,
      ),
  ],
  content_length_too_long_then_close: [
    6,
    (_req, res) => raw(res, ['HTTP/1.1 200 OK', 'content-type: application/json', 'content-length: 500'], '{"id":"short"', true),
  ],
  content_length_too_long_then_silence: [
    3,
    (_req, res) => raw(res, ['HTTP/1.1 200 OK', 'content-type: application/json', 'content-length: 500'], '{"id":"short"', false),
  ],
  reset_before_headers: [8, (_req, res) => res.socket?.destroy()],
  reset_mid_body: [
    12,
    (_req, res, ctx) => {
      const chunks = sseChunks(ctx.provider, ctx.model, ['reset']);
      streamChunks(res, chunks, ctx.random.int(5, 30), { at: ctx.random.int(1, 3), run: () => res.socket?.destroy() });
    },
  ],
  html_error_page_200: [
    8,
    (_req, res) => {
      const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(html) });
      res.end(html);
    },
  ],
  garbage_not_http: [4, (_req, res) => raw(res, ['SSH-2.0-OpenSSH_9.6'], 'not http', false)],
  endless_error_body: [
    2,
    (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    },
  ],
};

/**
 * The per-attempt roll: `[[name, weight], …]` with the healthy share filling up to 1000.
 * `scale` multiplies every fault's weight but the 429's, which `rateLimitScale` sets: a
 * seat under a rate-limit deadline is never probed, so a flaky seat that also rate-limited
 * all the time would hide the probe path the soak means to exercise.
 */
export function faultTable(scale = 1, rateLimitScale = scale) {
  const faults = Object.entries(FAULTS).map(([name, [weight]]) => [
    name,
    weight * (name === 'http_429_hostile_retry_after' ? rateLimitScale : scale),
  ]);
  const faultShare = faults.reduce((sum, [, w]) => sum + w, 0);
  return [['ok', 1000 - faultShare], ...faults];
}
