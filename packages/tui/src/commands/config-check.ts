import { resolve } from 'node:path';
import type { Command } from 'commander';
import { environmentWith, formatIssue, formatWarning, loadConfig } from '@routeplane/shared';
import { colourFor } from '../output/colour.js';
import { EXIT_BAD_INPUT } from '../output/errors.js';

export function registerConfigCheck(config: Command): void {
  config
    .command('check')
    .description('validate routeplane.yaml exactly as `serve` would (including the key variables); every problem, then warnings')
    .option('--config <path>', 'routeplane.yaml to check (default: discovered)')
    .option('--env-file <file>', 'read the variables the config names from FILE too, as `serve --env-file FILE` does')
    .action((opts: CheckOptions) => {
      process.exitCode = runConfigCheck(opts);
    });
}

interface CheckOptions {
  config?: string;
  envFile?: string;
}

function runConfigCheck(opts: CheckOptions): number {
  const envFile = opts.envFile === undefined ? null : resolve(opts.envFile);
  const environment = environmentWith(process.env, envFile);
  if (!environment.ok) {
    process.stderr.write(formatIssue(environment.issue) + '\n');
    return EXIT_BAD_INPUT;
  }
  const loaded = loadConfig(opts.config, environment.env);
  // errors first, then warnings: one line each, on stderr like any diagnostics
  if (!loaded.ok) for (const issue of loaded.issues) process.stderr.write(formatIssue(issue) + '\n');
  if (!loaded.ok && envFile === null && loaded.issues.some((issue) => issue.unsetVariable !== undefined)) {
    process.stderr.write(
      "routeplane: variables are read from this shell's environment; a daemon that gets them from a file (`serve --env-file FILE`) is checked with `config check --env-file FILE`\n",
    );
  }
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
