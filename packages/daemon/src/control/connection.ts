import type { Socket } from 'node:net';
import { encodeLine, LineSplitter, MAX_LINE_CHARS, type ControlReply, type ControlRequest } from '@routeplane/shared';
import type { ControlApi } from './api.js';
import { parseRequestLine } from './request.js';
import { Subscriber, type SubscriberLimits } from './subscriber.js';

/**
 * One client on the control socket: splits its bytes into lines, answers
 * each request with exactly one reply, and owns its subscription if it asks
 * for one. A malformed line costs an error reply, not the connection.
 */
export class ControlConnection {
  private readonly splitter = new LineSplitter(MAX_LINE_CHARS);
  private subscriber: Subscriber | null = null;
  /** set once the connection stops taking requests (line too long, overflow) */
  private deaf = false;
  private pausedForReplies = false;

  constructor(
    private readonly socket: Socket,
    private readonly api: ControlApi,
    private readonly limits: SubscriberLimits,
  ) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onEnd());
    // EPIPE / ECONNRESET from a client that vanished: 'close' follows and cleans up.
    socket.on('error', () => {});
    socket.on('close', () => this.subscriber?.stop());
  }

  /** The server is closing: subscribers end at once, nothing waits for a slow reader. */
  destroy(): void {
    this.subscriber?.stop();
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.deaf) return;
    for (const result of this.splitter.push(chunk)) {
      if (this.deaf) return;
      if (result.kind === 'too_long') {
        this.send({
          id: null,
          ok: false,
          error: { code: 'line_too_long', message: `line of ${result.length}+ characters exceeds the limit of ${MAX_LINE_CHARS}; closing` },
        });
        this.deaf = true;
        this.subscriber?.stop();
        this.socket.end();
        return;
      }
      this.onLine(result.line);
    }
  }

  private onEnd(): void {
    // The client finished writing. Answer a last unterminated line, then keep
    // streaming if it subscribed (`… | nc -U sock` is a fair way to watch), else hang up.
    if (!this.deaf) for (const result of this.splitter.end()) if (result.kind === 'line') this.onLine(result.line);
    if (this.subscriber === null || this.subscriber.overflowed) this.socket.end();
  }

  private onLine(line: string): void {
    const parsed = parseRequestLine(line);
    if (!parsed.ok) {
      this.send(parsed.reply);
      return;
    }
    this.handle(parsed.request);
  }

  private handle(request: ControlRequest): void {
    if (request.cmd === 'subscribe') {
      // reply first, so every event line follows the reply
      this.send({ id: request.id, ok: true, result: { subscribed: true } });
      if (this.subscriber === null && !this.socket.writableEnded) {
        this.subscriber = new Subscriber(this.socket, (listener) => this.api.subscribe(listener), this.limits);
      }
      return;
    }
    let reply: ControlReply;
    try {
      const outcome = this.api.answer(request);
      reply = outcome.ok ? { id: request.id, ok: true, result: outcome.result } : { id: request.id, ok: false, error: outcome.error };
    } catch (err) {
      reply = { id: request.id, ok: false, error: { code: 'internal', message: `internal error: ${(err as Error).message}` } };
    }
    this.send(reply);
  }

  private send(reply: ControlReply): void {
    if (this.socket.writableEnded || this.socket.destroyed) return;
    this.subscriber?.flush();
    if (!this.socket.write(encodeLine(reply)) && !this.pausedForReplies) {
      // A client that sends requests without reading replies gets its reads
      // paused until it catches up: the kernel then pushes back on its writes.
      this.pausedForReplies = true;
      this.socket.pause();
      this.socket.once('drain', () => {
        this.pausedForReplies = false;
        this.socket.resume();
      });
    }
  }
}
