import { Argument, type Command } from 'commander';
import { bashCompletion } from '../completion/bash.js';
import { completionTree } from '../completion/command-tree.js';
import { fishCompletion } from '../completion/fish.js';
import { zshCompletion } from '../completion/zsh.js';

const RENDERERS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;
type Shell = keyof typeof RENDERERS;

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a completion script for every command and flag (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(Object.keys(RENDERERS)))
    .action((shell: Shell) => {
      // generated from the command tree as it is, so the script never drifts from the CLI
      process.stdout.write(RENDERERS[shell](completionTree(program)));
    });
}
