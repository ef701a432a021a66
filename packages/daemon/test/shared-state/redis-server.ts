/**
 * A real `redis-server` for tests:
 * on a free loopback port, with no persistence (`--save ''`, no append-only
 * file), stopped by its PID. `kill()` is the outage of the kill/restart test
 * (SIGKILL, as a crash); `restart()` brings a fresh, empty server back on the
 * same port, as a Redis restarted without persistence comes back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../helpers/loopback-port.js';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  /** SIGKILL by PID; resolves once the process has exited */
  kill(): Promise<void>;
  /** a new server on the same port (empty: nothing was persisted) */
  restart(): Promise<void>;
  /** stops it for good (SIGTERM by PID, SIGKILL if it lingers) */
  stop(): Promise<void>;
}

export async function startRedis(opts: { password?: string } = {}): Promise<RedisServer> {
  const port = await freePort();
  let child = await launch(port, opts.password);
  const exit = (signal: NodeJS.Signals) => stopByPid(child, signal);
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    get pid() {
      return child.pid ?? -1;
    },
    kill: () => exit('SIGKILL'),
    async restart() {
      child = await launch(port, opts.password);
    },
    stop: () => exit('SIGTERM'),
  };
}

function launch(port: number, password: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
  if (password !== undefined) args.push('--requirepass', password);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // a test worker that dies must not leave its server behind
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`redis-server on port ${port} not ready within 10 s: ${out.slice(-500)}`)), 10_000);
    function fail(err: Error): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    }
    child.once('error', (err) => fail(new Error(`cannot start redis-server (is it installed?): ${err.message}`)));
    const exitedEarly = (code: number | null) => fail(new Error(`redis-server exited (${code}) before it was ready: ${out.slice(-500)}`));
    child.once('exit', exitedEarly);
    child.stderr?.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      if (!out.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      // only the start's own listener: the one that forgets `orphan` must stay, or every start leaks one on `process`
      child.off('exit', exitedEarly);
      // keep draining its log so the pipe never fills
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve(child);
    });
  });
}

function stopByPid(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(child.pid, signal);
  const hard = setTimeout(() => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  }, 5_000);
  return exited.finally(() => clearTimeout(hard));
}
