import { Argument, type Command } from 'commander';
import { bashCompletion } from '../completion/bash.js';
import { completionTree } from '../completion/command-tree.js';
import { fishCompletion } from '../completion/fish.js';
import { zshCompletion } from '../completion/zsh.js';
import { CliError, EXIT_BAD_INPUT } from '../output/errors.js';

const RENDERERS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;
type Shell = keyof typeof RENDERERS;

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a completion script for every command and flag (bash, zsh or fish)')
    // optional for commander, so that without one the answer names the shells, not only the argument
    .addArgument(new Argument('[shell]', 'the shell to complete in').choices(Object.keys(RENDERERS)))
    .action((shell: Shell | undefined) => {
      if (shell === undefined) {
        throw new CliError(
          'routeplane: completion needs a shell: bash, zsh or fish (e.g. `source <(routeplane completion bash)`)',
          EXIT_BAD_INPUT,
        );
      }
      // generated from the command tree as it is, so the script never drifts from the CLI
      process.stdout.write(RENDERERS[shell](completionTree(program)));
    });
}
