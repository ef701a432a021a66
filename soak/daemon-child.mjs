/**
 * The daemon under soak, in a process of its own so its memory is its own:
 * the BUILT daemon (packages/daemon/dist) started on the config file the
 * parent writes (SOAK_CONFIG_PATH), as `routeplane serve` starts it —
 * SIGHUP re-reads that file (a live reload). It reports readiness and a
 * memory sample every second over IPC, and closes gracefully on SIGTERM.
 */
import { loadConfig } from '../packages/shared/dist/index.js';
import { startDaemon } from '../packages/daemon/dist/index.js';

const path = process.env.SOAK_CONFIG_PATH ?? '';
const result = loadConfig(path, process.env);
if (!result.ok) {
  for (const issue of result.issues) process.stderr.write(`${issue.file}: ${issue.path}: ${issue.message}\n`);
  process.exit(2);
}

// reloads say what they did on this log; the soak shows the daemon's output only when it is not just that
const daemon = await startDaemon(result.config, { log: (line) => process.stderr.write(`${line}\n`), configPath: result.file });
process.on('SIGHUP', () => daemon.context.reload());
const sample = () => {
  const m = process.memoryUsage();
  process.send?.({ type: 'memory', at: Date.now(), rss: m.rss, heapUsed: m.heapUsed });
};
const sampler = setInterval(sample, 1000);
// The two RSS figures the soak compares are taken after a full GC (the runner forks us with
// --expose-gc), so they show what the daemon retains, not where the collector happened to be.
process.on('message', (message) => {
  if (message?.type !== 'measure') return;
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.send?.({
    type: 'measured',
    label: message.label,
    at: Date.now(),
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    gc: typeof globalThis.gc === 'function',
  });
});
process.send?.({
  type: 'ready',
  url: daemon.url,
  socketPath: daemon.socketPath,
  decisionLogPath: daemon.decisionLogPath,
  pid: process.pid,
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  clearInterval(sampler);
  await daemon.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
// the soak runner went away: do not outlive it
process.once('disconnect', stop);
