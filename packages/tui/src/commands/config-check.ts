import type { Command } from 'commander';
import { formatIssue, loadConfig } from '@routeplane/shared';
import { colourFor } from '../output/colour.js';
import { EXIT_BAD_INPUT } from '../output/errors.js';

export function registerConfigCheck(program: Command): void {
  program
    .command('config')
    .description('inspect the configuration')
    .command('check')
    .description('validate routeplane.yaml exactly as `serve` would (including the key variables)')
    .option('--config <path>', 'routeplane.yaml to check (default: discovered)')
    .action((opts: { config?: string }) => {
      process.exitCode = runConfigCheck(opts);
    });
}

function runConfigCheck(opts: { config?: string }): number {
  const loaded = loadConfig(opts.config);
  if (!loaded.ok) {
    for (const issue of loaded.issues) process.stderr.write(formatIssue(issue) + '\n');
    return EXIT_BAD_INPUT;
  }
  const { config } = loaded;
  const colour = colourFor(process.stdout);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  process.stdout.write(
    `${colour.green('✓')} ${loaded.file}: valid — ${plural(config.seats.length, 'seat')}, ${plural(config.routes.length, 'route')}, influence ${config.influence.enabled ? 'on' : 'off'}\n`,
  );
  return 0;
}
