import type { Command, Option } from 'commander';

/** One command as a completion script needs it, read from commander's own tree. */
export interface CompletionCommand {
  /** words from the root, `[]` for `routeplane` itself, `['breakers', 'reset']` */
  path: string[];
  description: string;
  subcommands: CompletionCommand[];
  options: CompletionOption[];
  /** the values its positional arguments accept, when commander knows them */
  argumentChoices: string[];
}

export interface CompletionOption {
  /** `-f` and `--follow`, whichever it has */
  names: string[];
  description: string;
  /** what follows the option: nothing, a file, one of some words, or anything */
  value: { kind: 'none' } | { kind: 'file' } | { kind: 'choices'; choices: string[] } | { kind: 'any' };
}

/** The tree under `command`, as `--help` shows it (help options and the `help` command included). */
export function completionTree(command: Command, path: string[] = []): CompletionCommand {
  const help = command.createHelp();
  return {
    path,
    description: help.subcommandDescription(command) || command.description(),
    subcommands: help.visibleCommands(command).map((sub) => completionTree(sub, [...path, sub.name()])),
    options: help.visibleOptions(command).map(completionOption),
    argumentChoices: command.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
  };
}

function completionOption(option: Option): CompletionOption {
  const names = [option.short, option.long].filter((name): name is string => name !== undefined);
  return { names, description: option.description, value: optionValue(option) };
}

function optionValue(option: Option): CompletionOption['value'] {
  if (!option.required && !option.optional) return { kind: 'none' };
  if (option.argChoices) return { kind: 'choices', choices: option.argChoices };
  // `--config <path>`, `--path <file>`, `--scenario <name-or-path>`: complete file names
  return /<[^>]*(path|file)[^>]*>|\[[^\]]*(path|file)[^\]]*\]/.test(option.flags) ? { kind: 'file' } : { kind: 'any' };
}

/** Every command in the tree, the root first. */
export function allCommands(root: CompletionCommand): CompletionCommand[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}
