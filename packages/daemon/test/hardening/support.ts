/**
 * Shared pieces of the hardening tests: hostile upstream behaviours the
 * fixture library does not have, bounded waits on real events, and the
 * invariants every hardening test ends with (no wedged or leaked upstream
 * socket, no probe left claimed).
 */
import { request as httpRequest } from 'node:http';
import { createConnection } from 'node:net';
import { expect } from 'vitest';
import type { FakeUpstream, Behaviour } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';

/** Rejects with `what` when `promise` has not settled within `ms` — a bound on a wait, never a sleep. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Generous bound for "the daemon closed that connection" on two busy cores. */
export const CLOSE_BOUND_MS = 10_000;

/** Every connection that carried a request to `up` has closed, and none is open. */
export async function expectAllUpstreamSocketsClosed(up: FakeUpstream, what: string): Promise<void> {
  await within(Promise.all(up.requests.map((r) => r.closed)), CLOSE_BOUND_MS, `${what}: every upstream connection closes`);
  expect(up.openConnections(), `${what}: open upstream sockets`).toBe(0);
}

/** No breaker anywhere holds a probe claim. */
export function expectNoClaimedProbe(t: TestDaemon): void {
  for (const seat of t.context.influence.seats()) {
    expect(seat.credit?.claimed_at ?? null, `seat ${seat.id} credit claim`).toBeNull();
    for (const model of seat.models) expect(model.breaker?.claimed_at ?? null, `${seat.id}/${model.model} claim`).toBeNull();
  }
}

/**
 * Writes a raw HTTP/1.1 response straight onto the socket, bypassing Node's
 * ServerResponse (which would fix up a lying content-length). The socket is
 * left open unless `end` is set, as a misbehaving keep-alive server would.
 */
export function rawResponse(head: string, body: string, opts: { end?: boolean } = {}): Behaviour {
  return (_req, res) => {
    const socket = res.socket;
    if (socket === null) return;
    const bytes = `${head.replace(/\n/g, '\r\n')}\r\n\r\n${body}`;
    if (opts.end === true) socket.end(bytes);
    else socket.write(bytes);
  };
}

/** 200 headers plus one first chunk, then silence: the connection stays open (an idle-timeout case). */
export function stallAfterFirstChunk(
  firstChunk: string,
  headers: Record<string, string> = { 'content-type': 'text/event-stream' },
): Behaviour {
  return (_req, res) => {
    res.writeHead(200, headers);
    res.write(firstChunk);
  };
}

/** Response headers flushed, then no body byte ever. */
export function headersThenSilence(contentType = 'text/event-stream'): Behaviour {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.flushHeaders();
  };
}

/** An error status whose body arrives slowly: headers now, the body never (until the socket dies). */
export function errorHeadersThenSilence(status: number): Behaviour {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"error":');
  };
}

// biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
export type Json = any;

/** OpenAI's error shape: `{"error": {message, type, code}}` with nothing else at the top. */
export function expectOpenAiError(body: Json, code?: string): void {
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toEqual({ message: expect.any(String), type: expect.any(String), code: code ?? expect.any(String) });
  expect(body.error.message.length).toBeGreaterThan(0);
}

/** Anthropic's error shape: `{"type": "error", "error": {type, message}}`. */
export function expectAnthropicError(body: Json, type?: string): void {
  expect(body).toEqual({ type: 'error', error: { type: type ?? expect.any(String), message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
}

/** The routeplane headers of a proxied answer. */
export function expectRouteplaneHeaders(res: Response, attempts: number, target: string | null): void {
  expect(res.headers.get('x-routeplane-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers.get('x-routeplane-attempts')).toBe(String(attempts));
  expect(res.headers.get('x-routeplane-target')).toBe(target);
}

/** Splits an SSE text into its events (blank-line separated), keeping their raw text. */
export function sseEvents(text: string): string[] {
  return text.split('\n\n').filter((e) => e !== '');
}

/** The data of the SSE event that ends a broken stream: OpenAI `data: {...}`, Anthropic `event: error` then data. */
export function streamErrorData(text: string, family: 'openai' | 'anthropic'): Json {
  const last = sseEvents(text).at(-1) ?? '';
  const lines = last.split('\n');
  if (family === 'anthropic') {
    expect(lines[0]).toBe('event: error');
    return JSON.parse(lines[1]!.slice('data: '.length));
  }
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!.slice('data: '.length));
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request with exactly the given method, path and headers (fetch would
 * normalise the path and add headers of its own). `chunked` sends the body
 * without a content-length.
 */
export function rawRequest(
  base: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  const body = opts.body ?? '';
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.chunked !== true && body.length > 0) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: opts.path, method: opts.method ?? 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunked === true) {
      // several writes, so the body really travels in chunks
      const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
      const step = Math.max(1, Math.ceil(buf.length / 8));
      for (let at = 0; at < buf.length; at += step) req.write(buf.subarray(at, at + step));
      req.end();
    } else req.end(body);
  });
}

/** Sends control commands over the daemon's unix socket and returns the raw reply lines, in order. */
export function controlLines(socketPath: string, commands: Array<Record<string, unknown>>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let buffer = '';
    const lines: string[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      buffer += text;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
      if (lines.length >= commands.length) {
        socket.destroy();
        resolve(lines);
      }
    });
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(commands.map((c, i) => JSON.stringify({ id: i + 1, ...c }) + '\n').join(''));
    });
  });
}
