// Request bodies as agents send them: a model, the stream flag, and a
// conversation of messages padded with code-like text (quotes and newlines
// to escape) up to the exact size. Written once to files that wrk reads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeBody, claudeCodeRequest, codexBody, codexRequest } from './agent-bodies.mjs';

const LINE = 'function handle(req) { return fetch("/v1/items?id=" + req.id, { method: "POST" }); }\n';

/** Shapes: the inbound path and headers of each protocol family. */
export const FAMILIES = {
  openai: {
    route: 'bench-gpt',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: 'Bearer agent-token-not-forwarded' },
  },
  anthropic: {
    route: 'bench-claude',
    path: '/v1/messages',
    headers: { 'content-type': 'application/json', 'x-api-key': 'agent-key-not-forwarded', 'anthropic-version': '2023-06-01' },
  },
};

/** A JSON body of exactly `bytes` bytes; `"stream"` comes right after `"model"` (the mock reads only the head). */
export function makeBody(family, stream, bytes) {
  const messageCount = Math.max(1, Math.round(bytes / 4096));
  const skeleton = (contents) =>
    JSON.stringify({
      model: FAMILIES[family].route,
      stream,
      max_tokens: 1024,
      messages: contents.map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content })),
    });
  const base = Buffer.byteLength(skeleton(Array.from({ length: messageCount }, () => '')));
  const room = bytes - base;
  if (room < 0) throw new Error(`body of ${bytes} bytes is too small for ${messageCount} messages`);
  // Fill with escaped text: each LINE costs more in JSON than in characters.
  const escapedLen = JSON.stringify(LINE).length - 2;
  const contents = Array.from({ length: messageCount }, () => '');
  let left = room;
  for (let i = 0; i < messageCount; i++) {
    const share = i === messageCount - 1 ? left : Math.floor(room / messageCount);
    const whole = Math.floor(share / escapedLen);
    contents[i] = LINE.repeat(whole) + 'x'.repeat(share - whole * escapedLen);
    left -= share;
  }
  const body = Buffer.from(skeleton(contents));
  if (body.length !== bytes) throw new Error(`built a ${body.length}-byte body, wanted ${bytes}`);
  return body;
}

/** The agents' own requests (agent-bodies.mjs), by the `family` name their cells carry; always streamed. */
export const AGENTS = {
  'claude-code': { kb: 110, body: claudeCodeBody, request: claudeCodeRequest, route: 'sonnet' },
  codex: { kb: 38, body: codexBody, request: codexRequest, route: 'gpt' },
};

/**
 * Writes every body the run needs; returns `requestFor(family, stream, kb)`:
 * the path, headers and body file of that request shape. `family` is a
 * protocol family (`openai`, `anthropic`: the generic bodies of every size)
 * or an agent (`claude-code`, `codex`: their own request, one size, streamed).
 */
export function writeBodies(dir, sizesKb) {
  const shapes = new Map();
  for (const family of Object.keys(FAMILIES)) {
    for (const stream of [false, true]) {
      for (const kb of sizesKb) {
        const file = join(dir, `${family}-${stream ? 'sse' : 'json'}-${kb}k.json`);
        writeFileSync(file, makeBody(family, stream, kb * 1024));
        shapes.set(`${family}:${stream}:${kb}`, { path: FAMILIES[family].path, headers: FAMILIES[family].headers, bodyFile: file });
      }
    }
  }
  for (const [name, agent] of Object.entries(AGENTS)) {
    const { body, session } = agent.body(agent.kb * 1024);
    const file = join(dir, `${name}-sse-${agent.kb}k.json`);
    writeFileSync(file, body);
    shapes.set(`${name}:true:${agent.kb}`, { ...agent.request(session), bodyFile: file });
  }
  return (family, stream, kb) => {
    const shape = shapes.get(`${family}:${stream}:${kb}`);
    if (shape === undefined) throw new Error(`bench: no ${family} ${stream ? 'SSE' : 'JSON'} ${kb} KB body`);
    return shape;
  };
}
