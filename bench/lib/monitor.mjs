// The monitor figure (goal 7): the `top` App fed 5,000 events/s for 10 s from
// a recorded stream (the daemon's own decision log from this run), in a child
// process of its own (monitor-child.mjs). This side captures what the App
// needs from a live daemon (hello, snapshot) and runs the child.
import { fork } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { CORE, pin } from './processes.mjs';

/** Asks the daemon for `hello` and `snapshot` over its control socket; writes them to `dir`. */
export function captureSnapshot(socketPath, dir) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('control socket: no hello/snapshot reply within 5 s'));
    }, 5000);
    let text = '';
    socket.on('error', reject);
    socket.on('connect', () => socket.write('{"id":1,"cmd":"hello"}\n{"id":2,"cmd":"snapshot"}\n'));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const lines = text.split('\n').filter((l) => l !== '');
      if (!text.endsWith('\n') || lines.length < 2) return;
      clearTimeout(timer);
      socket.destroy();
      const replies = new Map(lines.map((l) => JSON.parse(l)).map((r) => [r.id, r]));
      if (!replies.get(1)?.ok || !replies.get(2)?.ok) return reject(new Error(`control socket refused hello/snapshot: ${lines.join(' ')}`));
      writeFileSync(join(dir, 'hello.json'), JSON.stringify(replies.get(1).result));
      writeFileSync(join(dir, 'snapshot.json'), JSON.stringify(replies.get(2).result));
      resolve();
    });
  });
}

export async function measureMonitor({ root, dir, eventsPerSec = 5000, seconds = 10 }) {
  if (!existsSync(join(root, 'packages/tui/dist/top/ui/components/App.js'))) {
    return { status: 'failed', note: 'packages/tui/dist has no top App: the monitor package did not build' };
  }
  if (!existsSync(join(dir, 'snapshot.json'))) return { status: 'failed', note: 'no snapshot was captured from the daemon' };
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
