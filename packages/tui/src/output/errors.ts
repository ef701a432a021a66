import { CommanderError } from 'commander';
import { ControlRequestError, DaemonNotRunningError } from '../client/control-client.js';
import { ClientConfigError } from '../client/socket-path.js';

/** A failure the CLI reports in its own words and ends with a given exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * Exit codes, the same for every command: 0 success, 1 a failed operation
 * (daemon not running, nothing found), 2 bad input (usage, config).
 */
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

/** Turns any error into the lines to print ('' when already printed) and the exit code. */
export function describeFailure(err: unknown): { message: string; exitCode: number } {
  // commander has printed its own words (help, version, or `error: unknown option …`)
  if (err instanceof CommanderError) return { message: '', exitCode: err.exitCode === 0 ? 0 : EXIT_BAD_INPUT };
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof ClientConfigError) return { message: err.message, exitCode: EXIT_BAD_INPUT };
  if (err instanceof DaemonNotRunningError) return { message: err.message, exitCode: EXIT_FAILURE };
  if (err instanceof ControlRequestError) return { message: `routeplane: ${err.message}`, exitCode: EXIT_FAILURE };
  const message = err instanceof Error ? err.message : String(err);
  return { message: `routeplane: ${message}`, exitCode: EXIT_FAILURE };
}
