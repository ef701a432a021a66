import { Command } from 'commander';
import { ROUTEPLANE_VERSION } from '@routeplane/shared';
import { registerBreakers } from './commands/breakers.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import { registerDemo } from './commands/demo.js';
import { registerLogs } from './commands/logs.js';
import { registerReload } from './commands/reload.js';
import { registerServe } from './commands/serve.js';
import { registerStatus } from './commands/status.js';
import { registerTop } from './commands/top.js';
import { registerUsage } from './commands/usage.js';
import { registerWhy } from './commands/why.js';

/** The whole command tree; `completion` reads it, so its scripts never drift from it. */
export function buildProgram(): Command {
  const program = new Command('routeplane')
    .description('a local router in front of your model providers, for swarms of coding agents')
    .version(ROUTEPLANE_VERSION)
    // commander's own usage errors throw instead of exiting, so they get exit code 2 like ours;
    // subcommands inherit this from the commands created after it
    .exitOverride();

  registerServe(program);
  registerTop(program);
  registerStatus(program);
  registerBreakers(program);
  registerReload(program);
  registerLogs(program);
  registerWhy(program);
  registerUsage(program);
  registerConfig(program);
  registerDemo(program);
  registerCompletion(program);
  return program;
}
