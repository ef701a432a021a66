import { createConnection, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { LineSplitter, MAX_LINE_CHARS } from '@routeplane/shared';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { LineClient } from './line-client.js';
import { sampleEvent } from './sample-events.js';

const EVENTS = 50_000;
const BATCH = 500;
const HEAP_LIMIT_BYTES = 50 * 1024 * 1024;

/** A full collection when the runtime allows one, so heap numbers mean live memory. */
function collectGarbage(): (() => void) | null {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

async function settledHeap(gc: (() => void) | null): Promise<number> {
  // let pending I/O callbacks (decision log writes, socket flushes) finish first
  await new Promise((resolve) => setImmediate(resolve));
  gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * A subscriber that reads everything and keeps nothing but counters, so the
 * heap it costs the test process is not mistaken for the daemon's.
 */
class CountingSubscriber {
  received = 0;
  lastSeq = 0;
  outOfOrder = 0;
  private readonly waiters: Array<{ seq: number; resolve: () => void }> = [];

  private constructor(private readonly socket: Socket) {}

  static async subscribe(path: string): Promise<CountingSubscriber> {
    const socket = createConnection(path);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const subscriber = new CountingSubscriber(socket);
    const splitter = new LineSplitter(MAX_LINE_CHARS);
    const replied = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        for (const r of splitter.push(chunk)) {
          if (r.kind !== 'line') continue;
          const line = JSON.parse(r.line);
          if ('ok' in line) resolve();
          else subscriber.onEvent(line.event);
        }
      });
    });
    socket.write('{"id":1,"cmd":"subscribe"}\n');
    await replied;
    return subscriber;
  }

  private onEvent(event: { seq: number }): void {
    if (event.seq !== this.lastSeq + 1 && this.received > 0) this.outOfOrder += 1;
    this.lastSeq = event.seq;
    this.received += 1;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i]!;
      if (this.lastSeq >= waiter.seq) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  reached(seq: number): Promise<void> {
    if (this.lastSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  close(): void {
    this.socket.destroy();
  }
}

let t: TestDaemon | null = null;
const closers: Array<() => void> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await t?.close();
  t = null;
});

describe('a subscriber that stops reading', () => {
  it('is dropped with an overflow line while a reading subscriber gets all 50,000 events in order, and the heap stays bounded', async () => {
    t = await startTestDaemon({
      seats: [{ id: 'max-a', provider: 'anthropic', upstream: 'http://127.0.0.1:9' }],
      routes: [{ model: 'sonnet', chain: [{ seat: 'max-a', model: 'claude-sonnet-5' }] }],
      influence: { enabled: true },
    });
    // the test helper's recorder keeps every event; it must not count as the daemon's heap
    t.events.stop();
    const bus = t.context.bus;
    const gc = collectGarbage();

    const reader = await CountingSubscriber.subscribe(t.daemon.socketPath);
    closers.push(() => reader.close());
    const listenersWithoutStalled = bus.listenerCount;

    const stalled = await LineClient.connect(t.daemon.socketPath);
    closers.push(() => stalled.close());
    expect((await stalled.request('subscribe')).ok).toBe(true);
    stalled.socket.pause(); // from here on it reads nothing
    expect(bus.listenerCount).toBe(listenersWithoutStalled + 1);

    const heapBefore = await settledHeap(gc);
    const firstSeq = bus.lastSeq + 1;
    for (let produced = 0; produced < EVENTS; ) {
      for (let i = 0; i < BATCH; i++) bus.emit(sampleEvent(produced++));
      // a reading client keeps up between bursts; the stalled one never does
      await reader.reached(bus.lastSeq);
    }
    const heapAfter = await settledHeap(gc);

    expect(reader.received).toBe(EVENTS);
    expect(reader.outOfOrder).toBe(0);
    expect(reader.lastSeq).toBe(firstSeq + EVENTS - 1);
    // the stalled subscriber was let go of long before the end
    expect(bus.listenerCount).toBe(listenersWithoutStalled);
    expect(heapAfter - heapBefore).toBeLessThan(HEAP_LIMIT_BYTES);

    // Reading again, it finds what was sent before the cut, the overflow line, then the end.
    stalled.socket.resume();
    await stalled.ended;
    expect(stalled.lines.at(-1)).toEqual({ event: { type: 'overflow' } });
    const seqs = stalled
      .events()
      .filter((e) => e.type !== 'overflow')
      .map((e) => e.seq);
    expect(seqs.length).toBeLessThan(EVENTS);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => firstSeq + i));
  });
});
