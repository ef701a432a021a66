import type { Command } from 'commander';
import type { DecisionEvent } from '@routeplane/shared';
import { connectControl, DaemonNotRunningError } from '../client/control-client.js';
import { searchDecisionLog } from '../client/decision-log.js';
import { logLocationOf } from '../client/decision-log-location.js';
import { findClientConfig, resolveSocketPath } from '../client/socket-path.js';
import { colourFor } from '../output/colour.js';
import { CliError, EXIT_BAD_INPUT, EXIT_FAILURE } from '../output/errors.js';
import { explainDecision } from '../output/explain-decision.js';
import { paint } from '../output/segment.js';
import { withClientOptions, type ClientOptions } from './client-options.js';

interface WhyOptions extends ClientOptions {
  json?: boolean;
}

/** The shortest start of a request id taken for the whole (a UUID's first 8 hex digits). */
export const MIN_PREFIX = 8;

/**
 * `routeplane why REQUEST_ID`: one
 * decision in full, from the decision log (the rotated `.1` too), or from
 * the running daemon's recent decisions when the log is off or does not
 * have it. An id of 8 characters or more may be the start of one, when only
 * one decision starts with it.
 */
export function registerWhy(program: Command): void {
  withClientOptions(
    program
      .command('why')
      .description('one decision explained in full: route, chain with states, every attempt, who served')
      .argument('<request-id>', 'x-routeplane-request-id of the request (or its first 8+ characters)')
      .option('--json', 'print the decision event as it is stored'),
  ).action(async (requestId: string, opts: WhyOptions) => {
    process.exitCode = await runWhy(requestId.trim(), opts);
  });
}

async function runWhy(id: string, opts: WhyOptions): Promise<number> {
  if (id === '') throw new CliError('routeplane: why needs a request id (x-routeplane-request-id)', EXIT_BAD_INPUT);
  const matches = (requestId: string) => requestId === id || (id.length >= MIN_PREFIX && requestId.startsWith(id));
  const searched: string[] = [];
  const found = new Map<string, DecisionEvent>();
  const add = (decisions: DecisionEvent[]) => {
    for (const d of decisions) found.set(d.request_id, d);
  };

  const config = findClientConfig(opts.config);
  const location = logLocationOf(config);
  if (location.kind === 'disabled') searched.push(`no decision log (decision_log.path: false in ${location.file})`);
  else {
    const { found: inLog, files } = await searchDecisionLog(location.path, id, matches, location.keep);
    add(inLog);
    const present = files.filter((f) => f.exists);
    if (present.length === 0) searched.push(`no decision log at ${location.path}`);
    for (const f of present) searched.push(`${f.path} (${f.lines} line${f.lines === 1 ? '' : 's'})`);
  }
  if (found.size === 0) searched.push(await askDaemon(opts, matches, add));

  if (found.size === 0) {
    process.stderr.write(`routeplane: no decision ${id} (searched ${searched.join('; ')})\n`);
    return EXIT_FAILURE;
  }
  if (found.size > 1) {
    const ids = [...found.keys()];
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '');
    throw new CliError(`routeplane: ${id} starts ${ids.length} request ids (${shown}): give more of it`, EXIT_BAD_INPUT);
  }
  const decision = [...found.values()][0]!;
  if (opts.json) process.stdout.write(`${JSON.stringify(decision)}\n`);
  else {
    const colour = colourFor(process.stdout);
    const currency = config.found ? config.config.currency : undefined;
    for (const line of explainDecision(decision, { currency })) process.stdout.write(`${paint(line, colour)}\n`);
  }
  return 0;
}

/** The running daemon's recent decisions that match; returns what was searched, in words. */
async function askDaemon(opts: WhyOptions, matches: (id: string) => boolean, add: (d: DecisionEvent[]) => void): Promise<string> {
  const socketPath = resolveSocketPath(opts);
  let client: Awaited<ReturnType<typeof connectControl>>;
  try {
    client = await connectControl(socketPath);
  } catch (err) {
    if (err instanceof DaemonNotRunningError) return `no daemon running at ${socketPath}`;
    return `not the daemon: ${(err as Error).message}`;
  }
  try {
    const { decisions } = await client.request('recent');
    add(decisions.filter((d) => matches(d.request_id)));
    return `the last ${decisions.length} decision(s) of the daemon at ${socketPath}`;
  } finally {
    client.close();
  }
}
