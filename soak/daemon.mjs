/**
 * Starting, sampling and stopping the daemon child (daemon-child.mjs).
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export async function startDaemonChild(configPath, env) {
  const child = fork(join(here, 'daemon-child.mjs'), [], {
    env: { ...env, SOAK_CONFIG_PATH: configPath },
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (t) => (output += t));
  child.stderr.setEncoding('utf8').on('data', (t) => (output += t));
  const memory = [];
  const measureWaiters = new Map();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = await new Promise((resolve, reject) => {
    child.on('message', (message) => {
      if (message.type === 'memory') memory.push(message);
      else if (message.type === 'measured') measureWaiters.get(message.label)?.(message);
      else if (message.type === 'ready') resolve(message);
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`the daemon exited before it was ready (code ${code}, signal ${signal}): ${output.trim()}`)),
    );
  });
  return {
    ...ready,
    memory,
    output: () => output,
    /** RSS and heap right after a full GC in the daemon (null if it does not answer within 10 s) */
    measure(label) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 10_000);
        measureWaiters.set(label, (m) => (clearTimeout(timer), resolve(m)));
        child.send({ type: 'measure', label });
      });
    },
    exited,
    /** a live reload: the daemon re-reads its config file */
    hangUp() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGHUP');
    },
    /** SIGTERM, then the exit code; SIGKILL if it is not gone within `ms` */
    async stop(ms = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
