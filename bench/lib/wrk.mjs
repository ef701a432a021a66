// The load generator is wrk (Debian's package, as the reference figures were
// measured: wrk -t1), installed when missing. This file only drives it: one Lua
// script per request shape, and a `done` hook that prints the figures as JSON.
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE, pinnedCommand } from './processes.mjs';

export function ensureWrk(log) {
  if (hasWrk()) return;
  log('wrk not found: installing it from Debian packages (apt-get install -y wrk)…');
  const run = (args) => {
    const [command, rest] = process.getuid?.() === 0 ? [args[0], args.slice(1)] : ['sudo', ['-n', ...args]];
    execFileSync(command, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  try {
    run(['apt-get', 'install', '-y', '-qq', 'wrk']);
  } catch {
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', 'wrk']);
  }
  if (!hasWrk()) throw new Error('wrk is still missing after apt-get install; install it by hand (apt-get install wrk)');
}

function hasWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its banner; only ENOENT means missing.
    return err.code !== 'ENOENT';
  }
}

/**
 * Writes the Lua script for one request shape: POST `path` with the body read
 * from `bodyFile`, plus `headers`. Returns the script's path.
 */
export function writeScript(dir, name, { path, bodyFile, headers }) {
  const lines = [
    'wrk.method = "POST"',
    `wrk.path = ${JSON.stringify(path)}`,
    `local f = assert(io.open(${JSON.stringify(bodyFile)}, "rb"))`,
    'wrk.body = f:read("*a")',
    'f:close()',
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'BENCHJSON {"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f}\\n\',',
    '    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))',
    'end',
  ];
  const file = join(dir, `${name}.lua`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/**
 * One wrk run: `connections` keep-alive connections on one thread for
 * `seconds`, pinned to the load core. Resolves with the parsed figures.
 */
export function runWrk({ url, script, connections, seconds, timeoutSec = 10 }) {
  const { command, args } = pinnedCommand(CORE.load, 'wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    `--timeout`,
    `${timeoutSec}s`,
    '-s',
    script,
    url,
  ]);
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (err += d));
    const killer = setTimeout(() => proc.kill('SIGKILL'), (seconds + timeoutSec + 15) * 1000);
    proc.on('error', reject);
    proc.on('exit', (code) => {
      clearTimeout(killer);
      const line = out.split('\n').find((l) => l.startsWith('BENCHJSON '));
      if (!line) return reject(new Error(`wrk exited ${code} without figures:\n${out}${err}`));
      const r = JSON.parse(line.slice('BENCHJSON '.length));
      const errors = r.connect + r.read + r.write + r.status + r.timeout;
      resolve({
        requests: r.requests,
        rps: r.requests / (r.duration_us / 1e6),
        p50Ms: r.p50_us / 1000,
        p90Ms: r.p90_us / 1000,
        p99Ms: r.p99_us / 1000,
        maxMs: r.max_us / 1000,
        errors,
        errorDetail: errors ? { connect: r.connect, read: r.read, write: r.write, status: r.status, timeout: r.timeout } : null,
      });
    });
  });
}
