// The IPC side every bench child shares: answer `usage` (this process's CPU
// time, read with process.cpuUsage for µs precision), stop on `stop`, and die
// with the parent (a lost IPC channel means the run is over; never linger).

/** @param {() => unknown | Promise<unknown>} stop  closes whatever the child serves */
export function answerUsage(stop) {
  let stopping = false;
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
  process.on('message', (msg) => {
    if (msg?.type === 'usage') {
      if (msg.gc) globalThis.gc?.(); // a live-heap figure, when the child runs with --expose-gc
      const { user, system } = process.cpuUsage();
      process.send({ type: 'usage', id: msg.id, cpuMicros: user + system, memory: process.memoryUsage() });
    } else if (msg?.type === 'stop') {
      void exit();
    }
  });
  process.on('disconnect', () => void exit());
  process.on('SIGTERM', () => void exit());
}
