import type { Command } from 'commander';
import { ControlRequestError } from '../client/control-client.js';
import { colourFor } from '../output/colour.js';
import { CliError, EXIT_BAD_INPUT } from '../output/errors.js';
import { withClientOptions, withDaemon, type ClientOptions } from './client-options.js';

interface ResetOptions extends ClientOptions {
  seat?: string;
  model?: string;
}

export function registerBreakers(program: Command): void {
  const breakers = program.command('breakers').description('steer the routing-influence breakers');
  withClientOptions(
    breakers
      .command('reset')
      .description('clear tripped breakers now (all, one seat and its models, or one target)')
      .option('--seat <id>', 'only this seat (its credit and rate-limit state and its models)')
      .option('--model <model>', 'only this model on --seat'),
  ).action(async (opts: ResetOptions) => {
    process.exitCode = await runReset(opts);
  });
  withClientOptions(
    breakers
      .command('probe')
      .description('let the next request probe tripped breakers now (you know the provider recovered early)')
      .option('--seat <id>', 'the seat (its seat-wide breakers and its models); required')
      .option('--model <model>', 'only this model on --seat (and a provider breaker covering it)'),
  ).action(async (opts: ResetOptions) => {
    // checked here, not by commander, so an unknown option is reported first, as for every command
    if (opts.seat === undefined) throw new CliError('routeplane: breakers probe needs --seat (and optionally --model)', EXIT_BAD_INPUT);
    process.exitCode = await runProbe({ ...opts, seat: opts.seat });
  });
}

async function runProbe(opts: ResetOptions & { seat: string }): Promise<number> {
  const colour = colourFor(process.stdout);
  return withDaemon(opts, async (client) => {
    try {
      const { made_ready } = await client.request('probe', { seat: opts.seat, model: opts.model });
      process.stdout.write(`${colour.green('●')} routing-influence breakers probe\n  ready     ${made_ready} breaker(s)\n`);
      return 0;
    } catch (err) {
      if (err instanceof ControlRequestError && err.code === 'influence_disabled') {
        process.stdout.write('routing influence is disabled (no breakers to probe)\n');
        return 0;
      }
      throw err;
    }
  });
}

async function runReset(opts: ResetOptions): Promise<number> {
  if (opts.model !== undefined && opts.seat === undefined) {
    throw new CliError('routeplane: --model needs --seat (a target is seat/model)', EXIT_BAD_INPUT);
  }
  const colour = colourFor(process.stdout);
  return withDaemon(opts, async (client) => {
    try {
      const { cleared } = await client.request('reset', { seat: opts.seat, model: opts.model });
      process.stdout.write(`${colour.green('●')} routing-influence breakers reset\n  cleared   ${cleared} breaker(s)\n`);
      return 0;
    } catch (err) {
      // Nothing to reset is not a failure: the escape hatch is simply not needed.
      if (err instanceof ControlRequestError && err.code === 'influence_disabled') {
        process.stdout.write('routing influence is disabled (no breakers to reset)\n');
        return 0;
      }
      throw err;
    }
  });
}
