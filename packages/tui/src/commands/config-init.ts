import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { parse } from 'yaml';
import { userConfigPath, type Env } from '@routeplane/shared';
import { CliError, EXIT_FAILURE } from '../output/errors.js';
import { packageFile } from '../package-file.js';

/** The starter config `config init` writes; the README's "Configure" example is this file. */
export const STARTER_CONFIG_FILE = packageFile('templates/routeplane.yaml');

export function registerConfigInit(config: Command): void {
  config
    .command('init')
    .description('write a commented starter routeplane.yaml (never over an existing file)')
    .option('--path <file>', 'where to write it (default: $ROUTEPLANE_CONFIG, else ~/.config/routeplane/routeplane.yaml)')
    .action((opts: { path?: string }) => {
      process.exitCode = runConfigInit(opts);
    });
}

/** Where `config init` writes by default: a place every directory's discovery finds. */
export function defaultInitPath(env: Env = process.env): string {
  return env.ROUTEPLANE_CONFIG ? resolve(env.ROUTEPLANE_CONFIG) : userConfigPath(env);
}

function runConfigInit(opts: { path?: string }): number {
  const file = opts.path ? resolve(opts.path) : defaultInitPath();
  const text = readFileSync(STARTER_CONFIG_FILE, 'utf8');
  try {
    mkdirSync(dirname(file), { recursive: true });
    // 'wx': the file must not exist, checked and created in one step
    writeFileSync(file, text, { flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new CliError(
        `routeplane: ${file} already exists; not overwriting it (check it with \`routeplane config check --config ${file}\`)`,
        EXIT_FAILURE,
      );
    }
    throw new CliError(`routeplane: cannot write ${file}: ${code ?? (err as Error).message}`, EXIT_FAILURE);
  }
  const variables = keyVariables(text);
  // the daemon's environment is fixed when it starts: a file it reads (and reloads) is where keys belong
  process.stdout.write(
    `wrote ${file}\n` +
      `next: edit the seats and routes to yours, put the keys they name (${variables.join(', ')}) in a file of NAME=value lines, then\n` +
      `  routeplane config check${opts.path ? ` --config ${file}` : ''} --env-file FILE\n`,
  );
  return 0;
}

function keyVariables(text: string): string[] {
  const doc = parse(text) as { seats?: Array<{ api_key_env?: string }> };
  return [...new Set((doc.seats ?? []).flatMap((seat) => (seat.api_key_env ? [seat.api_key_env] : [])))];
}
