import { createConnection, type Socket } from 'node:net';
import { LineSplitter, MAX_LINE_CHARS } from '@routeplane/shared';

/** Anything the daemon sends on the control socket, parsed. */
// biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
export type Line = any;

/**
 * A raw NDJSON client for protocol tests: writes exactly the bytes a test
 * gives it and keeps every line the daemon sends, so tests can wait for a
 * line (never a fixed time) and look at the whole conversation afterwards.
 */
export class LineClient {
  readonly lines: Line[] = [];
  private readonly waiters: Array<{ match: (line: Line) => boolean; resolve: (line: Line) => void }> = [];
  private readonly splitter = new LineSplitter(MAX_LINE_CHARS * 64);
  private nextId = 1;
  readonly ended: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const r of this.splitter.push(chunk)) if (r.kind === 'line') this.accept(JSON.parse(r.line));
    });
    this.ended = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
  }

  static connect(path: string): Promise<LineClient> {
    return new Promise((resolve, reject) => {
      const socket = createConnection(path);
      socket.once('connect', () => resolve(new LineClient(socket)));
      socket.once('error', reject);
    });
  }

  private accept(line: Line): void {
    this.lines.push(line);
    for (let i = 0; i < this.waiters.length; i++) {
      const waiter = this.waiters[i]!;
      if (waiter.match(line)) {
        this.waiters.splice(i, 1);
        waiter.resolve(line);
        return;
      }
    }
  }

  /** The first line (already received or still to come) that matches. */
  waitFor(match: (line: Line) => boolean, what = 'a matching line', timeoutMs = 15_000): Promise<Line> {
    const seen = this.lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.lines).slice(0, 500)}`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  }

  write(raw: string | Buffer): void {
    this.socket.write(raw);
  }

  /** Sends a request with a fresh id and resolves with its reply. */
  request(cmd: string, extra: Record<string, unknown> = {}): Promise<Line> {
    const id = this.nextId++;
    this.write(JSON.stringify({ id, cmd, ...extra }) + '\n');
    return this.waitFor((l) => l.id === id && 'ok' in l, `the reply to ${cmd} #${id}`);
  }

  events(): Line[] {
    return this.lines.filter((l) => 'event' in l).map((l) => l.event);
  }

  close(): void {
    this.socket.destroy();
  }
}
