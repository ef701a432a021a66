// Goal 5: one decision event end to end — build it as the proxy does, stamp it
// on the bus, queue it for the decision log, fan it out to 4 subscribers —
// ≤ 20 µs median. Measured twice: with 4 real unix-socket subscribers (a write
// syscall each: what the daemon pays) and with 4 in-memory sinks (the CPU of
// our own code alone).
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, bench, describe } from 'vitest';
import type { Attempt, DecisionChainEntry } from '../../packages/shared/src/index.js';
import { EventBus } from '../../packages/daemon/src/events/bus.js';
import { DecisionLog } from '../../packages/daemon/src/decision-log.js';
import { Subscriber } from '../../packages/daemon/src/control/subscriber.js';
import { emitDecision } from '../../packages/daemon/src/proxy/decision.js';

const dir = mkdtempSync(join(tmpdir(), 'routeplane-bench-'));
let requestNo = 0;

/** What the proxy assembles for one request that failed over once. */
function emitOne(bus: EventBus): void {
  const n = ++requestNo;
  const chain: DecisionChainEntry[] = [
    { seat: 'work-max', model: 'claude-sonnet-5', state: 'healthy', reason: null },
    { seat: 'personal', model: 'claude-sonnet-5', state: 'healthy', reason: null },
  ];
  const attempts: Attempt[] = [
    { seat: 'work-max', model: 'claude-sonnet-5', outcome: 'http_429', status: 429, ms: 12 },
    { seat: 'personal', model: 'claude-sonnet-5', outcome: 'ok', status: 200, ms: 340 },
  ];
  emitDecision(bus, {
    requestId: `rp-${n.toString(36)}`,
    route: 'sonnet',
    family: 'anthropic',
    stream: true,
    chain,
    attempts,
    servedBy: 'personal/claude-sonnet-5',
    status: 200,
    startedAt: performance.now() - 353,
    failOpen: false,
    requested: 'sonnet',
    agent: null,
    lane: 'foreground',
    session: null,
    balance: 'ordered',
    skipped: false,
    usage: null,
    price: null,
    plan: false,
    client: null,
  });
}

/** Lets I/O run now and then (log writes, socket reads) so queues stay real, not ever-growing. */
const yieldEvery = 64;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function setUp(name: string, sockets: Writable[]) {
  const bus = new EventBus();
  const log = new DecisionLog(join(dir, `${name}.ndjson`), 1 << 30, bus, () => {});
  const subscribers = sockets.map((s) => new Subscriber(s as net.Socket, (listener) => bus.subscribe(listener)));
  return { bus, log, subscribers };
}

// Four real unix-socket connections; the client ends read and discard.
const socketPath = join(dir, 'bench.sock');
const server = net.createServer();
await new Promise<void>((resolve) => server.listen(socketPath, resolve));
const accepted: net.Socket[] = [];
server.on('connection', (s) => accepted.push(s));
const clients = await Promise.all(
  Array.from(
    { length: 4 },
    () =>
      new Promise<net.Socket>((resolve) => {
        const c = net.connect(socketPath, () => resolve(c));
        c.on('data', () => {});
      }),
  ),
);
while (accepted.length < 4) await turn();

const real = setUp('real', accepted);
const memory = setUp(
  'memory',
  Array.from({ length: 4 }, () => new Writable({ write: (_c, _e, cb) => cb() })),
);

afterAll(async () => {
  for (const s of [...real.subscribers, ...memory.subscribers]) s.stop();
  await Promise.all([real.log.close(), memory.log.close()]);
  for (const c of clients) c.destroy();
  for (const s of accepted) s.destroy();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('decision event', () => {
  let i = 0;
  bench('build + emit + log + fan-out to 4 unix-socket subscribers', async () => {
    emitOne(real.bus);
    if (++i % yieldEvery === 0) await turn();
  });

  let j = 0;
  bench('build + emit + log + fan-out to 4 in-memory sinks', async () => {
    emitOne(memory.bus);
    if (++j % yieldEvery === 0) await turn();
  });
});
