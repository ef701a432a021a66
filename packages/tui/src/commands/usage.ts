import { type Command, Option } from 'commander';
import { findClientConfig } from '../client/socket-path.js';
import { logLocationOf } from '../client/decision-log-location.js';
import { CliError, EXIT_BAD_INPUT, EXIT_FAILURE } from '../output/errors.js';
import { readDecisionLogs, unreadableWords } from '../usage/decision-log-files.js';
import { localMinute, parseTimeBound } from '../usage/time-bounds.js';
import { USAGE_BY, type UsageBy, UsageTally } from '../usage/usage-tally.js';
import { usageTable } from '../usage/usage-table.js';
import type { ClientOptions } from './client-options.js';

interface UsageOptions extends Pick<ClientOptions, 'config'> {
  since: string;
  until?: string;
  by: UsageBy;
  json?: boolean;
}

export function registerUsage(program: Command): void {
  program
    .command('usage')
    .description('what the seats did: requests, tokens and cost per seat, target, route, agent, session or day, from the decision log')
    .option('--config <path>', 'routeplane.yaml that names the decision log')
    .option('--since <when>', 'from (a duration back: 30m, 24h, 7d; or a local date or time: 2026-11-30, "2026-11-30 14:02")', '24h')
    .option('--until <when>', 'up to, not including (the same forms; default now)')
    .addOption(new Option('--by <group>', 'one row per').choices(USAGE_BY).default('seat'))
    .option('--json', 'print {since, until, by, currency, rows, total} as JSON (times in epoch ms)')
    .action(async (opts: UsageOptions) => {
      process.exitCode = await runUsage(opts);
    });
}

function bound(option: string, text: string, now: number): number {
  const parsed = parseTimeBound(text, now);
  if (!parsed.ok) throw new CliError(`routeplane: ${option}: ${parsed.message}`, EXIT_BAD_INPUT);
  return parsed.at;
}

async function runUsage(opts: UsageOptions): Promise<number> {
  const now = Date.now();
  const since = bound('--since', opts.since, now);
  const until = opts.until === undefined ? now : bound('--until', opts.until, now);
  if (since >= until)
    throw new CliError(`routeplane: --since (${localMinute(since)}) must be before --until (${localMinute(until)})`, EXIT_BAD_INPUT);
  const found = findClientConfig(opts.config);
  const location = logLocationOf(found);
  if (location.kind === 'disabled') {
    process.stderr.write(`routeplane: the decision log is off (decision_log.path: false in ${location.file}): there is no usage to show\n`);
    return EXIT_FAILURE;
  }
  const tally = new UsageTally(opts.by, { since, until });
  const read = await readDecisionLogs(location.path, location.keep, (d) => tally.add(d));
  const warn = (line: string) => process.stderr.write(`routeplane: ${line}\n`);
  if (read.files.length === 0) warn(`no decision log at ${location.path} yet: nothing is counted`);
  const unreadable = unreadableWords(read.unreadable);
  if (unreadable !== null) warn(unreadable);
  if (read.oldest !== null && since < read.oldest) warn(`the log starts at ${localMinute(read.oldest)}; earlier requests are not counted`);
  const report = tally.report(found.found ? found.config.currency : 'USD');
  if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else process.stdout.write(`${usageTable(report).join('\n')}\n`);
  return 0;
}
