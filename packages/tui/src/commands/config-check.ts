import type { Command } from 'commander';
import { formatIssue, formatWarning, loadConfig } from '@routeplane/shared';
import { colourFor } from '../output/colour.js';
import { EXIT_BAD_INPUT } from '../output/errors.js';

export function registerConfigCheck(config: Command): void {
  config
    .command('check')
    .description('validate routeplane.yaml exactly as `serve` would (including the key variables); every problem, then warnings')
    .option('--config <path>', 'routeplane.yaml to check (default: discovered)')
    .action((opts: { config?: string }) => {
      process.exitCode = runConfigCheck(opts);
    });
}

function runConfigCheck(opts: { config?: string }): number {
  const loaded = loadConfig(opts.config);
  // errors first, then warnings: one line each, on stderr like any diagnostics
  if (!loaded.ok) for (const issue of loaded.issues) process.stderr.write(formatIssue(issue) + '\n');
  for (const warning of loaded.warnings) process.stderr.write(formatWarning(warning) + '\n');
  if (!loaded.ok) return EXIT_BAD_INPUT;

  const { config } = loaded;
  const colour = colourFor(process.stdout);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const warned = loaded.warnings.length === 0 ? '' : `, ${plural(loaded.warnings.length, 'warning')}`;
  process.stdout.write(
    `${colour.green('✓')} ${loaded.file}: valid — ${plural(config.seats.length, 'seat')}, ${plural(config.routes.length, 'route')}, influence ${config.influence.enabled ? 'on' : 'off'}${warned}\n`,
  );
  return 0;
}
