#!/usr/bin/env node
import { Command } from 'commander';
import { ROUTEPLANE_VERSION } from '@routeplane/shared';
import { registerBreakers } from './commands/breakers.js';
import { registerConfigCheck } from './commands/config-check.js';
import { registerDemo } from './commands/demo.js';
import { registerLogs } from './commands/logs.js';
import { registerReload } from './commands/reload.js';
import { registerServe } from './commands/serve.js';
import { registerStatus } from './commands/status.js';
import { registerTop } from './commands/top.js';
import { describeFailure } from './output/errors.js';

// `routeplane logs -f | head -3`: the reader leaving is a normal way to stop.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const program = new Command('routeplane')
  .description('a local router in front of your model providers, for swarms of coding agents')
  .version(ROUTEPLANE_VERSION);

registerServe(program);
registerTop(program);
registerStatus(program);
registerBreakers(program);
registerReload(program);
registerLogs(program);
registerConfigCheck(program);
registerDemo(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const { message, exitCode } = describeFailure(err);
  process.stderr.write(message + '\n');
  process.exitCode = exitCode;
}
