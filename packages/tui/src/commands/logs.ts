import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { DecisionEvent, Env } from '@routeplane/shared';
import { defaultDecisionLogPath } from '@routeplane/shared';
import { connectControl, type ControlClient } from '../client/control-client.js';
import { readLastDecisions } from '../client/decision-log.js';
import { findClientConfig, resolveSocketPath } from '../client/socket-path.js';
import { colourFor } from '../output/colour.js';
import { decisionSegments } from '../output/decision-line.js';
import { paint } from '../output/segment.js';
import { withClientOptions, type ClientOptions } from './client-options.js';

interface LogsOptions extends ClientOptions {
  follow?: boolean;
  json?: boolean;
  lines: number;
}

function lineCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

export function registerLogs(program: Command): void {
  withClientOptions(
    program
      .command('logs')
      .description('the last decisions from the decision log; -f then follows live from the daemon')
      .option('-f, --follow', 'keep printing decisions as they happen')
      .option('--json', 'print decisions as NDJSON, one event per line')
      .option('-n, --lines <n>', 'how many past decisions to print', lineCount, 20),
  ).action(async (opts: LogsOptions) => {
    process.exitCode = await runLogs(opts);
  });
}

type LogLocation = { kind: 'file'; path: string } | { kind: 'disabled'; file: string };

function decisionLogLocation(opts: ClientOptions, env: Env = process.env): LogLocation {
  const found = findClientConfig(opts.config, env);
  if (!found.found || found.config.decision_log.path === null) return { kind: 'file', path: defaultDecisionLogPath(env) };
  if (found.config.decision_log.path === false) return { kind: 'disabled', file: found.file };
  return { kind: 'file', path: resolve(found.config.decision_log.path) };
}

async function runLogs(opts: LogsOptions): Promise<number> {
  const colour = colourFor(process.stdout);
  const print = (decision: DecisionEvent) =>
    process.stdout.write((opts.json ? JSON.stringify(decision) : paint(decisionSegments(decision), colour)) + '\n');

  // Following: subscribe before reading the file, so nothing decided in
  // between is lost; what arrives meanwhile waits until the past is printed.
  const follower = opts.follow ? await follow(resolveSocketPath(opts)) : null;
  const shown = new Set<string>();
  try {
    for (const decision of await pastDecisions(opts)) {
      print(decision);
      shown.add(decision.request_id);
    }
  } catch (err) {
    follower?.client.close();
    throw err;
  }
  if (!follower) return 0;
  // an early event the log already held was printed above
  follower.start((decision) => {
    if (!shown.has(decision.request_id)) print(decision);
  });
  return follower.ended;
}

async function pastDecisions(opts: LogsOptions): Promise<DecisionEvent[]> {
  const location = decisionLogLocation(opts);
  if (location.kind === 'disabled') {
    process.stderr.write(`routeplane: the decision log is disabled (decision_log.path: false in ${location.file})\n`);
    return [];
  }
  const past = await readLastDecisions(location.path, opts.lines);
  if (past === null) process.stderr.write(`routeplane: no decision log at ${location.path} yet\n`);
  return past ?? [];
}

interface Follower {
  client: ControlClient;
  /** replays what arrived so far, then hands every new decision to `print` */
  start(print: (decision: DecisionEvent) => void): void;
  /** the exit code: 0 when stopped by a signal, 1 when the daemon went away */
  ended: Promise<number>;
}

async function follow(socketPath: string): Promise<Follower> {
  const client = await connectControl(socketPath);
  let stopping = false;
  const stop = () => {
    stopping = true;
    client.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const ended = new Promise<number>((resolveEnd) => {
    client.onClose((error) => {
      if (stopping) return resolveEnd(0);
      const why = error ? `lost: ${error.message}` : 'closed by the daemon';
      process.stderr.write(`routeplane: connection to ${socketPath} ${why}\n`);
      resolveEnd(1);
    });
  });

  const early: DecisionEvent[] = [];
  let sink: ((decision: DecisionEvent) => void) | null = null;
  await client.subscribe((event) => {
    if (event.type === 'overflow') {
      process.stderr.write('routeplane: the daemon dropped this follower because its output fell behind (overflow)\n');
    } else if (event.type === 'decision') {
      if (sink) sink(event);
      else early.push(event);
    }
  });
  return {
    client,
    ended,
    start(print) {
      for (const decision of early.splice(0)) print(decision);
      sink = print;
    },
  };
}
