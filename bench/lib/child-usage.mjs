// The IPC side every bench child shares: answer `usage` (this process's CPU
// time, read with process.cpuUsage for µs precision), start and stop a CPU
// profile of exactly one measured cell (`profile-start`, `profile-stop`: the
// inspector in-process, so start-up and warm-up stay out of it), stop on
// `stop`, and die with the parent (a lost IPC channel means the run is over;
// never linger).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

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
  process.on('message', (msg) => {
    if (msg?.type === 'usage') {
      if (msg.gc) globalThis.gc?.(); // a live-heap figure, when the child runs with --expose-gc
      const { user, system } = process.cpuUsage();
      reply(msg, { cpuMicros: user + system, memory: process.memoryUsage() });
    } else if (msg?.type === 'profile-start') {
      profiler = new Session();
      profiler.connect();
      post('Profiler.enable')
        .then(() => post('Profiler.setSamplingInterval', { interval: msg.intervalUs ?? 200 }))
        .then(() => post('Profiler.start'))
        .then(() => reply(msg, {}))
        .catch((err) => failed(msg, err));
    } else if (msg?.type === 'profile-stop') {
      post('Profiler.stop')
        .then(({ profile }) => {
          writeFileSync(msg.file, JSON.stringify(profile));
          profiler.disconnect();
          profiler = null;
          reply(msg, {});
        })
        .catch((err) => failed(msg, err));
    } else if (msg?.type === 'stop') {
      void exit();
    }
  });
  process.on('disconnect', () => void exit());
  process.on('SIGTERM', () => void exit());
}
