/**
 * Fake upstream providers for tests: real node:http servers on 127.0.0.1:0.
 *
 * A fake upstream records every request it receives and answers each one with
 * a `Behaviour` — a function writing to the raw response. Behaviours can be
 * queued for the next requests (`enqueue`) on top of a default (`setDefault`).
 * Ready-made behaviours live in `respond` below; `ControlledStream` lets a test
 * decide when each chunk of a streamed body is written.
 *
 *   const up = await startFakeUpstream();           // default: 200 JSON
 *   up.enqueue(respond.status(402));                // first request gets 402
 *   const req = await up.nextRequest();             // wait for it to arrive
 *   await req.closed;                               // ...or for its socket to close
 *   await up.close();
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** path and query as received */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** the body parsed as JSON, or undefined when it is not JSON */
  // biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
  json: any;
  /** resolves when the TCP connection that carried this request closes */
  closed: Promise<void>;
}

export type Behaviour = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface FakeUpstream {
  /** `http://127.0.0.1:PORT`, the base_url to configure a seat with */
  readonly url: string;
  /** every request received, in arrival order */
  readonly requests: RecordedRequest[];
  /** the behaviour for requests when nothing is queued */
  setDefault(behaviour: Behaviour): void;
  /** behaviours for the next requests, in order, before the default applies again */
  enqueue(...behaviours: Behaviour[]): void;
  /** resolves with the next request not yet returned by `nextRequest` (already arrived or future) */
  nextRequest(): Promise<RecordedRequest>;
  /** TCP connections currently open to this upstream */
  openConnections(): number;
  /** closes every connection and the server */
  close(): Promise<void>;
}

export async function startFakeUpstream(defaultBehaviour: Behaviour = respond.json(200, { ok: true })): Promise<FakeUpstream> {
  let fallback = defaultBehaviour;
  const queue: Behaviour[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const closedBySocket = new WeakMap<Socket, Promise<void>>();
  let handedOut = 0;
  const arrivalWaiters: Array<() => void> = [];

  const server: Server = createServer((req, res) => {
    void readBody(req).then(async (body) => {
      const socket = req.socket;
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        json: parseJson(body),
        closed: closedBySocket.get(socket) ?? Promise.resolve(),
      };
      requests.push(recorded);
      for (const wake of arrivalWaiters.splice(0)) wake();
      const behaviour = queue.shift() ?? fallback;
      try {
        await behaviour(recorded, res);
      } catch {
        res.destroy();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    closedBySocket.set(socket, new Promise((resolve) => socket.once('close', () => resolve())));
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake upstream has no port');

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    setDefault(behaviour) {
      fallback = behaviour;
    },
    enqueue(...behaviours) {
      queue.push(...behaviours);
    },
    async nextRequest() {
      while (requests.length <= handedOut) await new Promise<void>((resolve) => arrivalWaiters.push(resolve));
      return requests[handedOut++]!;
    },
    openConnections: () => sockets.size,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

// biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
function parseJson(body: Buffer): any {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A streamed 200 body under the test's control: nothing is written until the
 * test says so. `behaviour` goes into `enqueue`/`setDefault`; `started`
 * resolves once the upstream has sent its headers.
 */
export class ControlledStream {
  private res: ServerResponse | null = null;
  private readonly startedSignal = deferred<void>();
  readonly started: Promise<void> = this.startedSignal.promise;

  constructor(private readonly contentType = 'text/event-stream') {}

  readonly behaviour: Behaviour = (_req, res) => {
    this.res = res;
    res.writeHead(200, { 'content-type': this.contentType, 'cache-control': 'no-cache' });
    res.flushHeaders();
    this.startedSignal.resolve();
  };

  write(chunk: string): void {
    this.response().write(chunk);
  }

  end(chunk?: string): void {
    this.response().end(chunk);
  }

  /** kills the connection mid-body, as a crashing upstream would */
  reset(): void {
    this.response().socket?.destroy();
  }

  private response(): ServerResponse {
    if (this.res === null) throw new Error('ControlledStream: no request has reached it yet (await .started)');
    return this.res;
  }
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Ready-made behaviours. */
export const respond = {
  /** a JSON body with the given status and headers */
  json(status: number, body: unknown, headers: Record<string, string> = {}): Behaviour {
    return (_req, res) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };
  },

  /** an error status with a small JSON error body */
  status(status: number, headers: Record<string, string> = {}): Behaviour {
    return respond.json(status, { error: { message: `fake upstream says ${status}`, type: 'fake_error' } }, headers);
  },

  /** 429 with a `Retry-After` header (seconds or an HTTP-date, as given) */
  rateLimited(retryAfter: string): Behaviour {
    return respond.status(429, { 'retry-after': retryAfter });
  },

  /** accepts the request and never answers (a first-byte timeout) */
  hang(): Behaviour {
    return () => {};
  },

  /** closes the connection without any response (a network error) */
  resetBeforeHeaders(): Behaviour {
    return (_req, res) => {
      res.socket?.destroy();
    };
  },

  /** sends 200 headers and the first chunk, then kills the connection */
  resetMidBody(firstChunk: string, contentType = 'text/event-stream'): Behaviour {
    return (_req, res) => {
      res.writeHead(200, { 'content-type': contentType });
      res.write(firstChunk, () => setImmediate(() => res.socket?.destroy()));
    };
  },

  /** a whole SSE body written at once */
  sse(events: string[]): Behaviour {
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(events.join(''));
    };
  },

  /** an OpenAI chat completion whose content names the model it was asked for */
  openaiChat(content?: string): Behaviour {
    return (req, res) => {
      const model = String(req.json?.model);
      if (req.json?.stream === true) return respond.sse(openaiChatStream(model, content ?? `hello from ${model}`))(req, res);
      return respond.json(200, openaiChatCompletion(model, content ?? `hello from ${model}`))(req, res);
    };
  },

  /** an Anthropic message whose content names the model it was asked for */
  anthropicMessage(content?: string): Behaviour {
    return (req, res) => {
      const model = String(req.json?.model);
      if (req.json?.stream === true) return respond.sse(anthropicMessageStream(model, content ?? `hello from ${model}`))(req, res);
      return respond.json(200, anthropicMessageBody(model, content ?? `hello from ${model}`))(req, res);
    };
  },
};

export function openaiChatCompletion(model: string, content: string): object {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
  };
}

/** SSE events of a streamed chat completion, the content split in two deltas. */
export function openaiChatStream(model: string, content: string): string[] {
  const half = Math.ceil(content.length / 2);
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return [
    chunk({ role: 'assistant', content: content.slice(0, half) }, null),
    chunk({ content: content.slice(half) }, null),
    chunk({}, 'stop'),
    'data: [DONE]\n\n',
  ];
}

export function anthropicMessageBody(model: string, content: string): object {
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: content }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 2 },
  };
}

/** SSE events of a streamed Anthropic message, the text split in two deltas. */
export function anthropicMessageStream(model: string, content: string): string[] {
  const half = Math.ceil(content.length / 2);
  const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  return [
    event('message_start', {
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 0 },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: content.slice(0, half) } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: content.slice(half) } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
    event('message_stop', {}),
  ];
}
