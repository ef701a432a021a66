// What the figures were measured on, for RESULTS.md.
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { pinning, CORE } from './processes.mjs';

export function describeMachine() {
  let wrk = 'wrk (version unknown)';
  try {
    execFileSync('wrk', ['--version'], { encoding: 'utf8' });
  } catch (err) {
    // wrk --version prints its banner and exits 1
    const banner = String(err.stdout ?? '')
      .split('\n')[0]
      ?.trim();
    if (banner) wrk = banner.replace(/ Copyright.*$/, '');
  }
  return {
    cpuModel: cpus()[0]?.model?.trim() ?? 'unknown CPU',
    nproc: availableParallelism(),
    memGiB: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()}`,
    node: process.version,
    wrk,
    loadStart: loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
    pinning: pinning.enabled
      ? `Pinned with taskset: mock provider, wrk and subscribers on CPU ${CORE.load}; the proxy under test on CPU ${CORE.proxy}.`
      : `Not pinned (${pinning.why}).`,
  };
}

export const loadNow = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
