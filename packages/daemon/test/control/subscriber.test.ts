import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { Subscriber, type SubscriberLimits } from '../../src/control/subscriber.js';
import { LineClient } from './line-client.js';
import { sampleEvent } from './sample-events.js';

const SMALL: SubscriberLimits = { socketBufferBytes: 32 * 1024, maxQueuedBytes: 64 * 1024, maxQueuedEvents: 1000, lingerMs: 30_000 };

interface Pair {
  server: Server;
  serverSide: Socket;
  client: LineClient;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A real unix socket connection: the daemon's end and a test client. */
async function socketPair(): Promise<Pair> {
  const dir = mkdtempSync(join(tmpdir(), 'rp-sub-'));
  const path = join(dir, 's.sock');
  const server = createServer();
  const accepted = new Promise<Socket>((resolve) => {
    server.once('connection', resolve);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const client = await LineClient.connect(path);
  const serverSide = await accepted;
  serverSide.on('error', () => {});
  cleanups.push(() => {
    client.close();
    serverSide.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { server, serverSide, client };
}

describe('Subscriber', () => {
  it('delivers every event in order to a client that keeps reading', async () => {
    const bus = new EventBus();
    const { serverSide, client } = await socketPair();
    new Subscriber(serverSide, (l) => bus.subscribe(l), SMALL);
    // Bursts far larger than the socket buffer bound, each followed by a wait
    // for the client to catch up: the queue absorbs the burst, drain empties it.
    let sent = 0;
    for (let burst = 0; burst < 5; burst++) {
      for (let i = 0; i < 100; i++) bus.emit(sampleEvent(sent++));
      const last = sent;
      await client.waitFor((l) => l.event?.seq === last, `event ${last}`);
    }
    const seqs = client.events().map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: sent }, (_, i) => i + 1));
  });

  it('drops a client that stops reading: bounded queue, final overflow line, then end of stream', async () => {
    const bus = new EventBus();
    const { serverSide, client } = await socketPair();
    client.socket.pause();
    const subscriber = new Subscriber(serverSide, (l) => bus.subscribe(l), SMALL);
    let emitted = 0;
    while (bus.listenerCount > 0 && emitted < 100_000) bus.emit(sampleEvent(emitted++));
    expect(subscriber.overflowed).toBe(true);
    // bounded: the socket buffer bound plus one queue's worth, not all that was emitted
    expect(serverSide.writableLength).toBeLessThan(SMALL.socketBufferBytes + SMALL.maxQueuedBytes);
    for (let i = 0; i < 100; i++) bus.emit(sampleEvent(emitted++)); // ignored now

    client.socket.resume();
    await client.ended;
    const last = client.lines.at(-1);
    expect(last).toEqual({ event: { type: 'overflow' } });
    const seqs = client
      .events()
      .filter((e) => e.type !== 'overflow')
      .map((e) => e.seq);
    // what got through is an unbroken prefix of the stream
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(seqs.length).toBeLessThan(emitted);
  });

  it('stop() lets go of the bus at once', async () => {
    const bus = new EventBus();
    const { serverSide } = await socketPair();
    const subscriber = new Subscriber(serverSide, (l) => bus.subscribe(l), SMALL);
    expect(bus.listenerCount).toBe(1);
    subscriber.stop();
    expect(bus.listenerCount).toBe(0);
  });
});
