// Goal 7, in its own process: the real `top` App (built, packages/tui/dist)
// rendered by Ink into a fake terminal, its store fed a recorded stream of
// decision events at BENCH_EVENTS_PER_SEC for BENCH_SECONDS. Reports frames
// written (renders/s), store updates/s, CPU % of one core and heap after GC.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

// Ink renders only the last frame when it thinks it runs in CI: this is a terminal.
for (const name of ['CI', 'CONTINUOUS_INTEGRATION', 'BUILD_NUMBER', 'RUN_ID']) delete process.env[name];
// As `routeplane top` runs the app: runTop (packages/tui/src/top/run.ts) sets NODE_ENV=production
// before it loads React, which picks its build on first load — so here too, before the imports below.
process.env.NODE_ENV = 'production';

const root = process.env.BENCH_ROOT ?? '';
const dir = process.env.BENCH_DIR ?? '';
const rate = Number(process.env.BENCH_EVENTS_PER_SEC ?? 5000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_MS = 1000;

const fromTui = createRequire(join(root, 'packages/tui/package.json'));
const load = (spec) => import(pathToFileURL(fromTui.resolve(spec)).href);
const dist = (path) => import(pathToFileURL(join(root, 'packages/tui/dist', path)).href);
const React = (await load('react')).default;
const { render } = await load('ink');
const { MonitorStore } = await dist('top/store/monitor-store.js');
const { App } = await dist('top/ui/components/App.js');
const { createTheme } = await dist('top/ui/theme.js');

/** Ink wraps each frame in synchronized-update markers, written on their own. */
const SYNC_MARKER = /^\x1b\[\?2026[hl]$/;

/** A terminal that counts the frames Ink writes to it. */
class FakeTerminal extends Writable {
  isTTY = true;
  columns = 100;
  rows = 32;
  frames = 0;
  bytes = 0;
  _write(chunk, _encoding, callback) {
    this.bytes += chunk.length;
    if (!SYNC_MARKER.test(chunk.toString('latin1'))) this.frames += 1;
    callback();
  }
}
const stdout = new FakeTerminal();
const stderr = new FakeTerminal();
const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode() {}, ref() {}, unref() {} });

// The recording: the daemon's own decision log from the matrix run, one event per line.
const recorded = readFileSync(join(dir, 'decisions.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .slice(-20_000);
if (recorded.length === 0) throw new Error('no recorded events (decision log is empty)');
const hello = JSON.parse(readFileSync(join(dir, 'hello.json'), 'utf8'));
const snapshot = JSON.parse(readFileSync(join(dir, 'snapshot.json'), 'utf8'));
const recent = existsSync(join(dir, 'recent.json')) ? JSON.parse(readFileSync(join(dir, 'recent.json'), 'utf8')) : [];

const store = new MonitorStore();
let storeUpdates = 0;
store.subscribe(() => (storeUpdates += 1));
const actions = { reset: async () => ({ ok: true, cleared: 0 }), probe: async () => ({ ok: true, madeReady: 0 }) };
const instance = render(React.createElement(App, { store, actions, theme: createTheme({ colour: true }) }), {
  stdout,
  stdin,
  stderr,
  maxFps: 20,
  exitOnCtrlC: false,
  patchConsole: false,
  debug: false,
});
store.setDaemon(hello);
store.setConnection({ kind: 'live', since: Date.now() });
store.push({ kind: 'snapshot', snapshot });
// as `top` attaches: the daemon's recent decisions fill the log first
store.push({ kind: 'backfill', decisions: recent });
store.start();

// Feed by the clock, not by timer ticks: whatever is due is pushed, parsed as a client would.
let seq = 1_000_000;
let fed = 0;
const startedAt = performance.now();
const feeder = setInterval(() => {
  const due = Math.floor(((performance.now() - startedAt) / 1000) * rate);
  for (let n = Math.min(due - fed, rate); n > 0; n--) {
    const event = JSON.parse(recorded[fed % recorded.length]);
    event.seq = ++seq;
    event.ts = Date.now();
    store.push({ kind: 'event', event });
    fed += 1;
  }
}, 5);

const heapAfterGc = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const sample = () => ({ at: performance.now(), cpu: process.cpuUsage(), frames: stdout.frames, updates: storeUpdates, fed });
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

await wait(WARMUP_MS);
const heapStartMB = heapAfterGc();
const start = sample();
await wait(seconds * 1000);
const end = sample();
clearInterval(feeder);
const heapEndMB = heapAfterGc();
instance.unmount();
store.stop();

const wall = (end.at - start.at) / 1000;
const cpuMicros = end.cpu.user + end.cpu.system - start.cpu.user - start.cpu.system;
process.send({
  type: 'result',
  result: {
    status: 'measured',
    seconds: Math.round(wall * 10) / 10,
    events: end.fed - start.fed,
    eventsPerSec: (end.fed - start.fed) / wall,
    rendersPerSec: (end.frames - start.frames) / wall,
    storeUpdatesPerSec: (end.updates - start.updates) / wall,
    cpuPercent: (cpuMicros / (wall * 1e6)) * 100,
    heapStartMB,
    heapEndMB,
    heapFlat: heapEndMB - heapStartMB < Math.max(2, heapStartMB * 0.1),
    recorded: recorded.length,
    nodeEnv: process.env.NODE_ENV ?? '(unset)',
  },
});
process.exit(0);
