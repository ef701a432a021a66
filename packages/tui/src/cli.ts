#!/usr/bin/env node
import { describeFailure } from './output/errors.js';
import { buildProgram } from './program.js';

// `routeplane logs -f | head -3`: the reader leaving is a normal way to stop.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const program = buildProgram();

if (process.argv.length <= 2) {
  // no command: the help is the answer, not a usage error
  program.outputHelp();
} else {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    const { message, exitCode } = describeFailure(err);
    if (message !== '') process.stderr.write(message + '\n');
    process.exitCode = exitCode;
  }
}
