// The mock provider: a node:http server answering the OpenAI (`/v1/chat/completions`)
// and Anthropic (`/v1/messages`) shapes, as JSON or as SSE with N chunks.
// It runs in its own process (pinned beside the load generator) so that it
// never shares an event loop with the proxy being measured.
//
// Per-request knobs, as headers (the proxies forward them unchanged):
//   x-mock-chunks: N     SSE data chunks (default 20)
//   x-mock-gap-ms: MS    delay between chunks; 0 (default) = one event-loop turn,
//                        so each chunk leaves in its own write like a real stream
//   x-mock-echo: 1       parse the body and echo its `model` (correctness checks only;
//                        the load path never parses, to keep the mock cheap)
//   x-mock-fail: SEAT-KEY=STATUS   answer STATUS with an error body when the request
//                        carries that seat's key (the shared-state figure trips one seat)
//   x-mock-answer: claude-code | codex   the streamed answer those agents get
//                        (agent-answers.mjs), whatever the body says
import http from 'node:http';
import { AGENT_ANSWERS } from './agent-answers.mjs';
import { answerUsage } from './child-usage.mjs';

const STREAM_FLAG = /"stream"\s*:\s*true/;
const CREATED = Math.floor(Date.now() / 1000);

const OPENAI_JSON = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: CREATED,
  model: 'gpt-mock',
  choices: [{ index: 0, message: { role: 'assistant', content: 'The quick brown fox jumps over the lazy dog.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 512, completion_tokens: 12, total_tokens: 524 },
});

const ANTHROPIC_JSON = JSON.stringify({
  id: 'msg_bench',
  type: 'message',
  role: 'assistant',
  model: 'claude-mock',
  content: [{ type: 'text', text: 'The quick brown fox jumps over the lazy dog.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 512, output_tokens: 12 },
});

function openaiChunk(i) {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: 'gpt-mock',
    choices: [{ index: 0, delta: { content: `token${i} ` }, finish_reason: null }],
  })}\n\n`;
}

function anthropicChunk(i) {
  return `event: content_block_delta\ndata: ${JSON.stringify({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: `token${i} ` },
  })}\n\n`;
}

/** The frames of one SSE response: head, N data chunks, tail. Cached per (family, N). */
const framesCache = new Map();
function sseFrames(family, chunks) {
  const key = `${family}:${chunks}`;
  let frames = framesCache.get(key);
  if (frames) return frames;
  if (family === 'openai') {
    frames = [];
    for (let i = 0; i < chunks; i++) frames.push(openaiChunk(i));
    frames.push('data: [DONE]\n\n');
  } else {
    frames = [
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-mock', content: [], stop_reason: null, usage: { input_tokens: 512, output_tokens: 0 } } })}\n\n` +
        `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
    ];
    for (let i = 0; i < chunks; i++) frames.push(anthropicChunk(i));
    frames.push(
      `event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n` +
        `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":${chunks}}}\n\n` +
        `event: message_stop\ndata: {"type":"message_stop"}\n\n`,
    );
  }
  framesCache.set(key, frames);
  return frames;
}

function sendStream(res, family, chunks, gapMs) {
  sendFrames(res, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, sseFrames(family, chunks), gapMs);
}

/** One frame per write, each in its own event-loop turn (or `gapMs` apart), as a provider streams. */
function sendFrames(res, headers, frames, gapMs) {
  res.writeHead(200, headers);
  let i = 0;
  const next = () => {
    if (res.destroyed) return;
    res.write(frames[i++]);
    if (i === frames.length) res.end();
    else if (gapMs > 0) setTimeout(next, gapMs);
    else setImmediate(next);
  };
  next();
}

function handle(req, res) {
  const family = req.url.startsWith('/v1/messages') ? 'anthropic' : req.url.startsWith('/v1/') ? 'openai' : null;
  if (req.method !== 'POST' || family === null) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"mock: not found","type":"not_found","code":null}}');
    return;
  }
  const fail = req.headers['x-mock-fail'];
  if (typeof fail === 'string') {
    const [key, status] = fail.split('=');
    const sent = req.headers.authorization ?? req.headers['x-api-key'] ?? '';
    if (key && sent.endsWith(key)) {
      req.resume();
      req.on('end', () => {
        res.writeHead(Number(status), { 'content-type': 'application/json' });
        res.end(`{"error":{"message":"mock: ${Number(status)}","type":"mock_error","code":null}}`);
      });
      return;
    }
  }
  const agent = AGENT_ANSWERS[req.headers['x-mock-answer']];
  if (agent !== undefined) {
    // the body is not read for its flags: an agent's `stream` comes last
    req.resume();
    req.on('end', () => sendFrames(res, agent.headers(), agent.frames, 0));
    return;
  }
  const echo = req.headers['x-mock-echo'] === '1';
  let head = '';
  const parts = echo ? [] : null;
  req.on('data', (chunk) => {
    // The bench bodies put "stream" right after "model", so the first bytes tell.
    if (head.length < 512) head += chunk.toString('latin1', 0, Math.min(chunk.length, 512));
    if (parts) parts.push(chunk);
  });
  req.on('end', () => {
    const stream = STREAM_FLAG.test(head);
    if (parts) {
      let model = null;
      try {
        model = JSON.parse(Buffer.concat(parts).toString('utf8')).model ?? null;
      } catch {
        model = 'unparseable';
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          echo: {
            model,
            stream,
            path: req.url,
            authorization: req.headers.authorization ?? null,
            x_api_key: req.headers['x-api-key'] ?? null,
          },
        }),
      );
      return;
    }
    if (stream) {
      const chunks = Number(req.headers['x-mock-chunks'] ?? 20);
      const gapMs = Number(req.headers['x-mock-gap-ms'] ?? 0);
      sendStream(res, family, chunks, gapMs);
      return;
    }
    const body = family === 'openai' ? OPENAI_JSON : ANTHROPIC_JSON;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}

const server = http.createServer(handle);
server.keepAliveTimeout = 120_000;
server.headersTimeout = 121_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', url: `http://127.0.0.1:${server.address().port}` });
});
answerUsage(() => server.close());
