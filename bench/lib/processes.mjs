// Child processes of the bench: forked with an IPC channel, pinned to a core
// with taskset (when there is one and more than one core), asked for their
// CPU time over IPC, and always stopped — every child is tracked and killed
// on exit, so the bench never leaves a process behind.
import { execFileSync, fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const live = new Set();

export const pinning = (() => {
  if (availableParallelism() < 2) return { enabled: false, why: 'one core' };
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return { enabled: true, why: 'taskset' };
  } catch {
    return { enabled: false, why: 'taskset not found' };
  }
})();

/** Cores: the load side (load generator, mock provider, subscribers) and the proxy under test. */
export const CORE = { load: 0, proxy: 1 };

/** Pins a running process and all its threads to one core; a no-op without taskset. */
export function pin(pid, core) {
  if (!pinning.enabled) return;
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
}

/** Prefix for a command to run pinned to `core`. */
export function pinnedCommand(core, command, args) {
  return pinning.enabled ? { command: 'taskset', args: ['-c', String(core), command, ...args] } : { command, args };
}

/**
 * Forks `script`, waits for its `{type:'ready'}` message, pins it.
 * @returns {Promise<Child>}
 */
export async function startChild(name, script, { core, env = {}, execArgv = [], timeoutMs = 20_000 } = {}) {
  const child = fork(script, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not ready within ${timeoutMs} ms`)), timeoutMs);
    child.on('message', function onMessage(msg) {
      if (msg?.type === 'ready' || msg?.type === 'failed') {
        clearTimeout(timer);
        child.off('message', onMessage);
        if (msg.type === 'failed') reject(new Error(`${name} failed to start:\n${msg.message}`));
        else resolve(msg);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name}: exited with code ${code} before it was ready`));
    });
  });
  if (core !== undefined) pin(child.pid, core);
  return new Child(name, child, ready);
}

let nextId = 1;

export class Child {
  constructor(name, proc, ready) {
    this.name = name;
    this.proc = proc;
    this.ready = ready;
    this.pid = proc.pid;
  }

  /** Sends `{type, id, ...}` and resolves with the reply carrying the same id. */
  ask(type, extra = {}, timeoutMs = 10_000) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.proc.off('message', onMessage);
        reject(new Error(`${this.name}: no answer to ${type} within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (msg) => {
        if (msg?.id !== id) return;
        clearTimeout(timer);
        this.proc.off('message', onMessage);
        if (msg.type === 'error') reject(new Error(`${this.name}: ${msg.message}`));
        else resolve(msg);
      };
      this.proc.on('message', onMessage);
      this.proc.send({ type, id, ...extra });
    });
  }

  /** CPU time (user + system, µs) the process has used so far. */
  async cpuMicros() {
    return (await this.ask('usage')).cpuMicros;
  }

  /** Resets the kernel's peak-RSS mark (VmHWM); false when the kernel refuses. */
  resetPeakRss() {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  }

  /** Peak resident set size since the last reset, in bytes (null off Linux). */
  peakRss() {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : null;
    } catch {
      return null;
    }
  }

  async stop(timeoutMs = 5000) {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((resolve) => this.proc.once('exit', resolve));
    try {
      this.proc.send({ type: 'stop' });
    } catch {
      this.proc.kill('SIGKILL');
    }
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }
}

/** Last line of defence: whatever is still running when the bench exits is killed. */
export function killAll() {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}
process.on('exit', killAll);
