// The monitor figure (goal 7): the `top` App fed 5,000 events/s for 10 s from
// a recorded stream (the daemon's own decision log from this run), in a child
// process of its own (monitor-child.mjs). This side captures what the App
// needs from a live daemon (hello, a protocol-v2 snapshot, the recent
// decisions it backfills its log with) and runs the child.
import { fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { CORE, pin } from './processes.mjs';

/**
 * What makes a recording protocol v2: `hello` says
 * protocol 2, the snapshot carries `seq`, `breakers[]`, `store` and each
 * seat's `usage`. `top` reads nothing else: a v1 recording would measure a
 * monitor that no longer exists.
 */
export function v2Problems(hello, snapshot) {
  const problems = [];
  if (hello?.protocol !== 2) problems.push(`hello.protocol is ${JSON.stringify(hello?.protocol)}, not 2`);
  if (typeof snapshot?.seq !== 'number') problems.push('the snapshot has no seq');
  if (!Array.isArray(snapshot?.breakers)) problems.push('the snapshot has no breakers[]');
  if (typeof snapshot?.store?.kind !== 'string') problems.push('the snapshot has no store');
  if (!Array.isArray(snapshot?.seats) || snapshot.seats.some((s) => !('usage' in s))) problems.push('a seat has no usage');
  return problems;
}

/** Asks the daemon for `hello`, `snapshot` and `recent` over its control socket; checks they are v2 and writes them to `dir`. */
export function captureSnapshot(socketPath, dir) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('control socket: no hello/snapshot reply within 5 s'));
    }, 5000);
    let text = '';
    socket.on('error', reject);
    socket.on('connect', () => socket.write('{"id":1,"cmd":"hello"}\n{"id":2,"cmd":"snapshot"}\n{"id":3,"cmd":"recent"}\n'));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n').filter((l) => l !== '');
      if (!text.endsWith('\n') || lines.length < 3) return;
      clearTimeout(timer);
      socket.destroy();
      const replies = new Map(lines.map((l) => JSON.parse(l)).map((r) => [r.id, r]));
      if (![1, 2, 3].every((id) => replies.get(id)?.ok)) {
        return reject(new Error(`control socket refused hello/snapshot/recent: ${lines.join(' ').slice(0, 500)}`));
      }
      const problems = v2Problems(replies.get(1).result, replies.get(2).result);
      if (problems.length > 0) return reject(new Error(`not a protocol-v2 daemon: ${problems.join('; ')}`));
      writeFileSync(join(dir, 'hello.json'), JSON.stringify(replies.get(1).result));
      writeFileSync(join(dir, 'snapshot.json'), JSON.stringify(replies.get(2).result));
      writeFileSync(join(dir, 'recent.json'), JSON.stringify(replies.get(3).result.decisions));
      resolve();
    });
  });
}

export async function measureMonitor({ root, dir, eventsPerSec = 5000, seconds = 10 }) {
  if (!existsSync(join(root, 'packages/tui/dist/top/ui/components/App.js'))) {
    return { status: 'failed', note: 'packages/tui/dist has no top App: the monitor package did not build' };
  }
  if (!existsSync(join(dir, 'snapshot.json'))) return { status: 'failed', note: 'no snapshot was captured from the daemon' };
  const problems = v2Problems(
    JSON.parse(readFileSync(join(dir, 'hello.json'), 'utf8')),
    JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8')),
  );
  if (problems.length > 0) return { status: 'failed', note: `the recorded snapshot is not protocol v2: ${problems.join('; ')}` };
  // The child sets NODE_ENV=production before it loads React, as `routeplane top` does.
  const child = fork(new URL('./monitor-child.mjs', import.meta.url), [], {
    execArgv: ['--expose-gc'],
    env: { ...process.env, BENCH_ROOT: root, BENCH_DIR: dir, BENCH_EVENTS_PER_SEC: String(eventsPerSec), BENCH_SECONDS: String(seconds) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  pin(child.pid, CORE.proxy);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 40) * 1000);
    let result = null;
    child.on('message', (msg) => {
      if (msg?.type === 'result') result = msg.result;
    });
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve(result ?? { status: 'failed', note: `monitor bench exited ${code}: ${stderr.trim().split('\n').slice(-5).join(' ')}` });
    });
  });
}
