import { InvalidArgumentError, type Command } from 'commander';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number above 0');
  return n;
}

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('a daemon over simulated seats and a swarm of simulated agents, with top attached (no keys needed)')
    .option('--agents <n>', 'simulated agents', positiveInt, 12)
    .option('--no-top', 'run without the monitor (prints what happens)')
    .option('--duration <sec>', 'stop after this many seconds (default: until q / Ctrl-C)', positiveNumber)
    .option('--speed <x>', 'time scale of the scenario', positiveNumber, 1)
    .option('--scenario <name-or-path>', 'scenario to play instead of the built-in one')
    .option('--json', 'print what happens as NDJSON instead of showing top')
    .action(async (opts: { agents: number; top: boolean; duration?: number; speed: number; scenario?: string; json?: boolean }) => {
      // loaded on demand, like top: the demo brings the daemon, Ink and React
      const { runDemo } = await import('../demo/run.js');
      process.exitCode = await runDemo({
        agents: opts.agents,
        top: opts.top,
        durationSec: opts.duration ?? null,
        speed: opts.speed,
        scenario: opts.scenario ?? null,
        json: opts.json === true,
      });
    });
}
