import { InvalidArgumentError, type Command } from 'commander';
import type { DaemonEvent, DecisionEvent } from '@routeplane/shared';
import { DaemonFollower } from '../client/daemon-follower.js';
import { readLastDecisions } from '../client/decision-log.js';
import { decisionLogLocation } from '../client/decision-log-location.js';
import { resolveSocketPath } from '../client/socket-path.js';
import { colourFor } from '../output/colour.js';
import { decisionSegments } from '../output/decision-line.js';
import { type DecisionFilter, matchesDecision, statusFilter } from '../output/decision-filter.js';
import { paint } from '../output/segment.js';
import { timeOrDateTime } from '../output/time-words.js';
import { afterMs, TransitionPrinter } from '../output/transition-printer.js';
import { withClientOptions, type ClientOptions } from './client-options.js';

interface LogsOptions extends ClientOptions, DecisionFilter {
  follow?: boolean;
  json?: boolean;
  /** only decisions: no breaker transitions, reloads or store changes */
  decisions?: boolean;
  lines: number;
}

function statusOption(value: string): string {
  const status = statusFilter(value);
  if (status === null) throw new InvalidArgumentError('expected a status code (429) or a class (2xx, 4xx, 5xx)');
  return status;
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
      .description('the last decisions from the decision log; -f then follows live from the daemon, across its restarts')
      .option('-f, --follow', 'keep printing decisions and breaker transitions as they happen')
      .option('--json', 'print NDJSON, one event per line, as the daemon sends them')
      .option('--decisions', 'with -f: decisions only, no breaker transitions')
      .option('-n, --lines <n>', 'how many past decisions to print', lineCount, 20)
      .option('--seat <id>', 'only decisions tried on or served by this seat (and, with -f, its transitions)')
      .option('--route <name>', 'only decisions of this route')
      .option('--session <prefix>', 'only decisions of the session whose tag starts so')
      .option('--agent <id>', 'only decisions of this agent')
      .option('--status <code>', 'only decisions answered with this status, or class: 2xx, 4xx, 5xx', statusOption),
  ).action(async (opts: LogsOptions) => {
    process.exitCode = await runLogs(opts);
  });
}

/** Writes decisions and transitions to stdout, as text lines or NDJSON. */
function stdoutPrinter(opts: LogsOptions) {
  const colour = colourFor(process.stdout);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const self = { self: null as string | null };
  const transitions = new TransitionPrinter(out, self, afterMs(20));
  const width = () => (process.stdout.isTTY ? process.stdout.columns : undefined);
  const decision = (d: DecisionEvent) => {
    if (!matchesDecision(d, opts)) return;
    if (opts.json) return out(JSON.stringify(d));
    transitions.flush();
    out(paint(decisionSegments(d, { everyModel: true, identity: true, time: timeOrDateTime(Date.now()), width: width() }), colour));
  };
  return {
    decision,
    event(event: DaemonEvent) {
      if (event.type === 'decision') return decision(event);
      // usage windows move with every answer: `top` and `status` show them, the log does not
      if (opts.decisions || event.type === 'usage') return;
      if (opts.seat !== undefined && event.type === 'breaker' && event.seat !== opts.seat) return;
      if (opts.json) return out(JSON.stringify(event));
      transitions.push(event);
    },
    /** changes from another daemon (a shared store) say where they came from */
    following(daemonId: string) {
      self.self = daemonId;
    },
    flush: () => transitions.flush(),
  };
}

async function runLogs(opts: LogsOptions): Promise<number> {
  const printer = stdoutPrinter(opts);
  if (!opts.follow) {
    for (const decision of await pastDecisions(opts)) printer.decision(decision);
    return 0;
  }

  const socketPath = resolveSocketPath(opts);
  const say = (line: string) => process.stderr.write(`routeplane: ${line}\n`);
  const follower = new DaemonFollower(socketPath, {
    event: (event) => printer.event(event),
    lost: (why) => say(`lost the daemon at ${socketPath} (${why}); following again when it is back`),
    back: (hello, restarted) => {
      printer.following(hello.daemon_id);
      say(restarted ? `daemon restarted (pid ${hello.pid})` : `reconnected to the daemon (pid ${hello.pid})`);
    },
  });
  // Connected and subscribed before the log is read, so nothing decided in
  // between is lost; what arrives meanwhile waits until the past is printed.
  const hello = await follower.connect();
  printer.following(hello.daemon_id);
  const ended = new Promise<number>((resolveEnd) => {
    const stop = () => {
      follower.stop();
      printer.flush();
      resolveEnd(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  try {
    const past = await pastDecisions(opts);
    for (const decision of past) printer.decision(decision);
    follower.shown(past);
  } catch (err) {
    follower.stop();
    throw err;
  }
  follower.start();
  return ended;
}

async function pastDecisions(opts: LogsOptions): Promise<DecisionEvent[]> {
  const location = decisionLogLocation(opts);
  if (location.kind === 'disabled') {
    process.stderr.write(`routeplane: the decision log is disabled (decision_log.path: false in ${location.file})\n`);
    return [];
  }
  const past = await readLastDecisions(location.path, opts.lines, (d) => matchesDecision(d, opts), location.keep);
  if (past === null) process.stderr.write(`routeplane: no decision log at ${location.path} yet\n`);
  return past ?? [];
}
