// The IPC side every bench child shares: answer `usage` (this process's CPU
// time, read with process.cpuUsage for µs precision), start and stop a CPU
// profile of exactly one measured cell (`profile-start`, `profile-stop`: the
// inspector in-process, so start-up and warm-up stay out of it), stop on
// `stop`, and die with the parent (a lost IPC channel means the run is over;
// never linger).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

/** @param {() => unknown | Promise<unknown>} stop  closes whatever the child serves */
export function answerUsage(stop) {
  let stopping = false;
  let profiler = null;
  const exit = async () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 3000);
    force.unref();
    try {
      await stop();
    } finally {
      process.exit(0);
    }
  };
  const post = (method, params) =>
    new Promise((resolve, reject) => profiler.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));
  const reply = (msg, extra) => process.send({ type: msg.type, id: msg.id, ...extra });
  const failed = (msg, err) => process.send({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) });
  /** Stops the CPU or heap profiler and writes what it recorded to `msg.file`. */
  const stopInto = (msg, method) =>
    post(method)
      .then(({ profile }) => {
        writeFileSync(msg.file, JSON.stringify(profile));
        profiler.disconnect();
        profiler = null;
        reply(msg, {});
      })
      .catch((err) => failed(msg, err));
  process.on('message', (msg) => {
    if (msg?.type === 'usage') {
      if (msg.gc) globalThis.gc?.(); // a live-heap figure, when the child runs with --expose-gc
      const { user, system } = process.cpuUsage();
      // `spaces`: the V8 heap by space (new, old, code, large objects), for where a peak goes
      const spaces = msg.spaces ? Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size])) : undefined;
      reply(msg, { cpuMicros: user + system, memory: process.memoryUsage(), spaces });
    } else if (msg?.type === 'profile-start') {
      profiler = new Session();
      profiler.connect();
      post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: msg.intervalUs ?? 200 }))
        .then(() => post('Profiler.start'))
        .then(() => reply(msg, {}))
        .catch((err) => failed(msg, err));
    } else if (msg?.type === 'profile-stop') {
      stopInto(msg, 'Profiler.stop');
    } else if (msg?.type === 'allocations-start') {
      // V8's sampling heap profiler: where the bytes a cell allocates come from (pnpm bench --profile --allocations)
      profiler = new Session();
      profiler.connect();
      post('HeapProfiler.startSampling', {
        samplingInterval: msg.intervalBytes ?? 16_384,
        // every allocation, not only what is still alive when sampling stops; `survivors`: not what a
        // scavenge freed, so what is left is what outlived one and was promoted (or is still alive)
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: !msg.survivors,
      })
        .then(() => reply(msg, {}))
        .catch((err) => failed(msg, err));
    } else if (msg?.type === 'allocations-stop') {
      stopInto(msg, 'HeapProfiler.stopSampling');
    } else if (msg?.type === 'heap-snapshot') {
      // a diagnosis of where memory goes (pnpm bench --memory --snapshot); pauses the process for seconds
      reply(msg, { file: writeHeapSnapshot(msg.file) });
    } else if (msg?.type === 'stop') {
      void exit();
    }
  });
  process.on('disconnect', () => void exit());
  process.on('SIGTERM', () => void exit());
}
