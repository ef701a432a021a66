import { createConnection, type Socket } from 'node:net';
import {
  encodeLine,
  LineSplitter,
  type ControlError,
  type ControlErrorCode,
  type RequestId,
  type ResultByCommand,
  type StreamedEvent,
} from '@routeplane/shared';

/** Nothing answers on the socket: no file there, or a file nobody listens on. */
export class DaemonNotRunningError extends Error {
  constructor(
    readonly socketPath: string,
    why: 'missing' | 'refused' = 'missing',
  ) {
    super(
      why === 'missing'
        ? `routeplane daemon is not running (no socket at ${socketPath})`
        : `routeplane daemon is not running (nothing accepts connections on ${socketPath})`,
    );
    this.name = 'DaemonNotRunningError';
  }
}

/** The daemon answered a request with an error reply. */
export class ControlRequestError extends Error {
  constructor(
    readonly code: ControlErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ControlRequestError';
  }
}

/** Every command a client may send: one per result shape the protocol defines. */
export type ClientCommand = keyof ResultByCommand;

export interface ControlClient {
  request<C extends ClientCommand>(cmd: C, args?: { seat?: string; model?: string }): Promise<ResultByCommand[C]>;
  /** sends `subscribe`; resolves after the reply; then every `{event}` line goes to onEvent */
  subscribe(onEvent: (event: StreamedEvent) => void): Promise<void>;
  /** called once when the connection ends (daemon gone, overflow, close()) */
  onClose(listener: (error: Error | null) => void): void;
  close(): void;
}

export interface ConnectOptions {
  /** for connecting and for each reply (default 5000) */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
/** Replies (a large snapshot) may outgrow the daemon's request limit; this only guards against garbage. */
const MAX_REPLY_CHARS = 64 * 1024 * 1024;

export function connectControl(socketPath: string, opts: ConnectOptions = {}): Promise<ControlClient> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`routeplane daemon at ${socketPath} did not accept the connection within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(connectError(socketPath, err));
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(new SocketControlClient(socket, timeoutMs));
    });
  });
}

function connectError(socketPath: string, err: NodeJS.ErrnoException): Error {
  switch (err.code) {
    case 'ENOENT':
      return new DaemonNotRunningError(socketPath, 'missing');
    case 'ECONNREFUSED':
      return new DaemonNotRunningError(socketPath, 'refused');
    case 'EACCES':
    case 'EPERM':
      return new Error(`cannot connect to the routeplane daemon at ${socketPath}: permission denied`);
    case 'ENOTSOCK':
      return new Error(`cannot connect to the routeplane daemon at ${socketPath}: not a socket`);
    default:
      return new Error(`cannot connect to the routeplane daemon at ${socketPath}: ${err.code ?? err.message}`);
  }
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

class SocketControlClient implements ControlClient {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly splitter = new LineSplitter(MAX_REPLY_CHARS);
  private eventHandler: ((event: StreamedEvent) => void) | null = null;
  private readonly closeListeners: Array<(error: Error | null) => void> = [];
  private closed: { error: Error | null } | null = null;
  private lastError: Error | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {
    socket.on('data', (chunk: Buffer) => {
      for (const result of this.splitter.push(chunk)) {
        if (result.kind === 'line') this.onLine(result.line);
        else this.fail(new Error(`the routeplane daemon sent a line of ${result.length}+ characters`));
      }
    });
    socket.on('error', (err) => {
      this.lastError = err;
    });
    socket.on('close', () => this.finish(this.lastError));
  }

  request<C extends ClientCommand>(cmd: C, args: { seat?: string; model?: string } = {}): Promise<ResultByCommand[C]> {
    if (this.closed) return Promise.reject(new Error('the connection to the routeplane daemon is closed'));
    const id = this.nextId++;
    return new Promise<ResultByCommand[C]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`routeplane daemon did not answer "${cmd}" within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject, timer });
      this.socket.write(encodeLine({ id, cmd, ...args }));
    });
  }

  async subscribe(onEvent: (event: StreamedEvent) => void): Promise<void> {
    // set before sending: the first event may arrive right behind the reply
    this.eventHandler = onEvent;
    await this.request('subscribe');
  }

  onClose(listener: (error: Error | null) => void): void {
    if (this.closed) listener(this.closed.error);
    else this.closeListeners.push(listener);
  }

  close(): void {
    this.socket.destroy();
    this.finish(null);
  }

  private onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.fail(new Error('the routeplane daemon sent a line that is not JSON'));
    }
    if (typeof message !== 'object' || message === null) return;
    if ('event' in message) {
      this.eventHandler?.((message as { event: StreamedEvent }).event);
      return;
    }
    if (!('ok' in message) || !('id' in message)) return;
    const reply = message as { id: RequestId | null; ok: boolean; result?: unknown; error?: ControlError };
    // Replies come in request order, so an id-less error answers the oldest request.
    const id = reply.id ?? this.pending.keys().next().value;
    if (id === undefined) return;
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(new ControlRequestError(reply.error?.code ?? 'internal', reply.error?.message ?? 'unknown error'));
  }

  private fail(error: Error): void {
    this.lastError = error;
    this.socket.destroy();
  }

  private finish(error: Error | null): void {
    if (this.closed) return;
    this.closed = { error };
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error ?? new Error('the routeplane daemon closed the connection'));
    }
    this.pending.clear();
    for (const listener of this.closeListeners.splice(0)) listener(error);
  }
}
