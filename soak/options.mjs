/**
 * `pnpm soak [--duration S] [--agents N] [--seed N] [--warmup S]`.
 * Defaults are the issue's: 200 agents for 120 s.
 */
export const USAGE = 'usage: pnpm soak [--duration SECONDS] [--agents N] [--seed N] [--warmup SECONDS]';

export function parseOptions(argv) {
  const opts = { durationSec: 120, agents: 200, seed: Date.now() % 1_000_000, warmupSec: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${flag} needs a positive number\n${USAGE}`);
      return v;
    };
    if (flag === '--duration') opts.durationSec = value();
    else if (flag === '--agents') opts.agents = Math.floor(value());
    else if (flag === '--seed') opts.seed = Math.floor(value());
    else if (flag === '--warmup') opts.warmupSec = value();
    else if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  // RSS "after warm-up" is read once the daemon's pools, JIT and heap have settled:
  // a quarter of the run, at least 5 s, at most 30 s
  opts.warmupSec ??= Math.min(30, Math.max(5, opts.durationSec / 4));
  if (opts.warmupSec >= opts.durationSec)
    throw new Error(`--warmup (${opts.warmupSec}s) must be shorter than --duration (${opts.durationSec}s)`);
  return opts;
}
