// The shared-state figures: three daemons on one Redis.
//  - convergence: a 402 on daemon A, the time until B and C order that seat last
//    (their breaker event, as a subscriber on their control sockets receives it,
//    minus A's own), p50/p99 over N trips; each trip is reset before the next;
//  - success path: the same proxy cell against a daemon with the memory store and one
//    with the Redis store (no breaker: nothing is written, reads are local), ABBA rounds;
//  - outage: requests at 200/s over the three daemons, Redis killed: the median latency
//    before and during the outage, and the time until every daemon is `ok` after a restart.
// redis-server (Debian's package) runs on a free loopback port with no persistence and is
// stopped by its PID.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export async function startRedisServer() {
  const port = await freePort();
  const launch = () =>
    new Promise((resolve, reject) => {
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      const timer = setTimeout(() => reject(new Error('redis-server not ready within 10 s')), 10_000);
      child.once('error', (err) => reject(new Error(`cannot start redis-server: ${err.message}`)));
      child.stdout.on('data', (b) => {
        out += b;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          child.stdout.removeAllListeners('data');
          child.stdout.resume();
          resolve(child);
        }
      });
    });
  let child = await launch();
  const stopBy = async (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(child.pid, signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}/0`,
    kill: () => stopBy('SIGKILL'),
    async restart() {
      child = await launch();
    },
    stop: () => stopBy('SIGTERM'),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A control-socket subscriber that hands every event to `onEvent` as it arrives. */
export function subscribe(socketPath, onEvent) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let buffer = '';
    let replied = false;
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('connect', () => socket.write('{"id":1,"cmd":"subscribe"}\n'));
    socket.on('data', (text) => {
      buffer += text;
      let nl;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const msg = JSON.parse(line);
        if (!replied && msg.id === 1) {
          replied = true;
          resolve({ close: () => socket.destroy() });
        } else if (msg.event) onEvent(msg.event, performance.now());
      }
    });
  });
}

export function control(socketPath, command) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`${JSON.stringify({ id: 1, ...command })}\n`));
    socket.on('data', (text) => {
      buffer += text;
      const nl = buffer.indexOf('\n');
      if (nl === -1) return;
      socket.destroy();
      const reply = JSON.parse(buffer.slice(0, nl));
      if (reply.ok) resolve(reply.result);
      else reject(new Error(`${command.cmd}: ${reply.error?.message}`));
    });
  });
}

const percentile = (xs, p) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length === 0 ? null : v[Math.min(v.length - 1, Math.ceil((p / 100) * v.length) - 1)];
};

/** Waits for `predicate` over the events seen so far and later ones, up to `ms`. */
function waiter() {
  const waiting = new Set();
  return {
    push(event, at) {
      for (const w of [...waiting]) {
        if (w.predicate(event)) {
          waiting.delete(w);
          w.resolve(at);
        }
      }
    },
    next(predicate, ms = 10_000, what = 'event') {
      return new Promise((resolve, reject) => {
        const w = { predicate, resolve };
        waiting.add(w);
        setTimeout(() => {
          if (waiting.delete(w)) reject(new Error(`shared-state bench: no ${what} within ${ms} ms`));
        }, ms).unref();
      });
    },
  };
}

/**
 * @param startDaemon (extraEnv) => Child, a daemon process with its own directory
 * @param opts {trips, upstream, log}
 */
export async function measureSharedState({ startDaemon, trips, log, chatPath, chatHeaders, chatBody }) {
  const redis = await startRedisServer();
  const daemons = [];
  const subs = [];
  try {
    for (let i = 0; i < 3; i++) daemons.push(await startDaemon({ BENCH_SHARED_REDIS: redis.url }));
    const feeds = daemons.map(() => waiter());
    for (const [i, d] of daemons.entries()) subs.push(await subscribe(d.ready.socketPath, (e, at) => feeds[i].push(e, at)));
    // every daemon in step, counting all three
    for (const d of daemons) await untilStore(d.ready.socketPath, (s) => s.state === 'ok' && s.daemons === 3);

    log(`shared state: convergence over ${trips} trips…`);
    const [a] = daemons;
    const delays = [];
    const isTrip = (e) => e.type === 'breaker' && e.action === 'tripped' && e.key === 'credit:oai-main';
    const isEnd = (e) => e.type === 'breaker' && e.key === 'credit:oai-main' && e.breaker === null;
    for (let t = 0; t < trips; t++) {
      const seen = feeds.map((f) => f.next(isTrip, 10_000, 'trip'));
      const res = await fetch(a.ready.url + chatPath, {
        method: 'POST',
        headers: { ...chatHeaders, 'x-mock-fail': 'sk-bench-a=402' },
        body: chatBody,
      });
      await res.arrayBuffer();
      const [atA, atB, atC] = await Promise.all(seen);
      delays.push(Math.max(atB, atC) - atA);
      const ended = feeds.map((f) => f.next(isEnd, 10_000, 'reset'));
      // reset on every daemon: a daemon degraded for a moment (a busy machine) would not pass
      // a reset on, and this figure is about trips
      await Promise.all(daemons.map((d) => control(d.ready.socketPath, { cmd: 'reset' })));
      await Promise.all(ended);
    }
    const convergence = { trips, p50Ms: percentile(delays, 50), p99Ms: percentile(delays, 99), maxMs: Math.max(...delays) };
    log(
      `  convergence p50 ${convergence.p50Ms.toFixed(2)} ms, p99 ${convergence.p99Ms.toFixed(2)} ms (max ${convergence.maxMs.toFixed(2)} ms)`,
    );

    log('shared state: Redis killed under load…');
    const outage = await measureOutage({ daemons, feeds, redis, chatPath, chatHeaders, chatBody });
    log(
      `  median latency ${outage.beforeP50Ms.toFixed(2)} ms before, ${outage.duringP50Ms.toFixed(2)} ms while Redis is away; ${outage.failed} failed of ${outage.requests}; every daemon ok ${outage.backInStepMs.toFixed(0)} ms after the restart`,
    );
    return { convergence, outage };
  } finally {
    for (const s of subs) s.close();
    await Promise.allSettled(daemons.map((d) => d.stop()));
    await redis.stop();
  }
}

async function untilStore(socketPath, ok, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const hello = await control(socketPath, { cmd: 'hello' });
    if (ok(hello.store)) return hello.store;
    if (Date.now() > deadline) throw new Error(`shared-state bench: store not in step: ${JSON.stringify(hello.store)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function measureOutage({ daemons, feeds, redis, chatPath, chatHeaders, chatBody }) {
  const RATE = 200;
  const samples = [];
  let sent = 0;
  let phase = 'before';
  let stopped = false;
  const inflight = [];
  const started = performance.now();
  const tick = () => {
    if (stopped) return;
    const due = Math.floor(((performance.now() - started) * RATE) / 1000) + 1;
    while (sent < due) {
      const d = daemons[sent++ % daemons.length];
      const label = phase;
      const t0 = performance.now();
      inflight.push(
        fetch(d.ready.url + chatPath, { method: 'POST', headers: chatHeaders, body: chatBody })
          .then(async (res) => {
            await res.arrayBuffer();
            samples.push({ phase: label, ms: performance.now() - t0, ok: res.status === 200 });
          })
          .catch(() => samples.push({ phase: label, ms: performance.now() - t0, ok: false })),
      );
    }
    setTimeout(tick, 1000 / RATE);
  };
  tick();
  await new Promise((r) => setTimeout(r, 2000));
  const degraded = feeds.map((f) => f.next((e) => e.type === 'store' && e.store.state === 'degraded', 10_000, 'degraded'));
  await redis.kill();
  await Promise.all(degraded);
  phase = 'during';
  await new Promise((r) => setTimeout(r, 2000));
  const back = feeds.map((f) => f.next((e) => e.type === 'store' && e.store.state === 'ok', 10_000, 'ok'));
  phase = 'after';
  await redis.restart();
  // from the moment the new server accepts connections
  const restartedAt = performance.now();
  const oks = await Promise.all(back);
  stopped = true;
  await Promise.all(inflight);
  const p50 = (label) =>
    percentile(
      samples.filter((s) => s.phase === label).map((s) => s.ms),
      50,
    );
  return {
    rate: RATE,
    requests: samples.length,
    failed: samples.filter((s) => !s.ok).length,
    beforeP50Ms: p50('before'),
    duringP50Ms: p50('during'),
    backInStepMs: Math.max(0, Math.max(...oks) - restartedAt),
  };
}

/** The shared-state section of RESULTS.md (and of `--shared`'s output). */
export function renderShared(f) {
  if (f === null || f === undefined) return '';
  const c = f.convergence;
  const o = f.outage;
  const s = f.successPath;
  const lines = [
    '',
    '## Shared state (three daemons on one Redis)',
    '',
    '| figure | value | goal |',
    '| --- | --- | --- |',
    `| convergence: a 402 on A until B and C order the seat last, p50 / p99 over ${c.trips} trips | ${c.p50Ms.toFixed(2)} ms / ${c.p99Ms.toFixed(2)} ms (max ${c.maxMs.toFixed(2)} ms) | p99 ≤ 100 ms: ${c.p99Ms <= 100 ? 'met' : 'NOT met'} |`,
    `| Redis killed at ${o.rate} req/s over the three daemons: failed requests | ${o.failed} of ${o.requests} | 0: ${o.failed === 0 ? 'met' : 'NOT met'} |`,
    `| … median latency before / while Redis is away | ${o.beforeP50Ms.toFixed(2)} ms / ${o.duringP50Ms.toFixed(2)} ms (added ${(o.duringP50Ms - o.beforeP50Ms).toFixed(2)} ms) | added < 5 ms: ${o.duringP50Ms - o.beforeP50Ms < 5 ? 'met' : 'NOT met'} |`,
    `| … every daemon \`ok\` after the restart | ${o.backInStepMs.toFixed(0)} ms | ≤ 2 s: ${o.backInStepMs <= 2000 ? 'met' : 'NOT met'} |`,
  ];
  if (s) {
    lines.push(
      `| success path, c=${s.c} 2 KB JSON, median of ${s.rounds} ABBA rounds: p50 memory / Redis store | ${s.memory.p50Ms.toFixed(3)} ms / ${s.redis.p50Ms.toFixed(3)} ms (added ${s.addedP50Ms.toFixed(3)} ms); ${Math.round(s.memory.rps)} / ${Math.round(s.redis.rps)} req/s | added ≤ 0.3 ms: ${s.addedP50Ms <= 0.3 ? 'met' : 'NOT met'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
