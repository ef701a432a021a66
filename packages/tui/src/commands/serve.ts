import { InvalidArgumentError, type Command } from 'commander';
import { resolve } from 'node:path';
import { type Config, environmentWith, formatIssue, formatWarning, loadConfig, readRedisUrl } from '@routeplane/shared';
import type { RunningDaemon } from '@routeplane/daemon';
import { EXIT_BAD_INPUT, EXIT_FAILURE } from '../output/errors.js';
import { ServeLog, type ServeLogFormat } from '../output/serve-log.js';
import { redisWhere, type StartFacts, type StoreFacts } from '../output/serve-start.js';
import { afterMs } from '../output/transition-printer.js';

interface ServeOptions {
  config?: string;
  envFile?: string;
  log: ServeLogFormat;
  quiet?: boolean;
}

function logFormat(value: string): ServeLogFormat {
  if (value !== 'text' && value !== 'json') throw new InvalidArgumentError('expected text or json');
  return value;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the daemon in the foreground')
    .option('--config <path>', 'routeplane.yaml to run (default: discovered)')
    .option(
      '--env-file <file>',
      "variables the config names (the seats' keys), NAME=value per line, over the environment; every reload reads it again",
    )
    .option('--log <format>', 'how stderr says what the daemon does: text, or json (NDJSON events)', logFormat, 'text')
    .option('--quiet', 'only errors on stderr')
    .action(async (opts: ServeOptions) => {
      // serve owns the process: it exits itself once the daemon is closed
      process.exit(await runServe(opts));
    });
}

async function runServe(opts: ServeOptions): Promise<number> {
  const envFile = opts.envFile === undefined ? null : resolve(opts.envFile);
  const environment = environmentWith(process.env, envFile);
  if (!environment.ok) {
    process.stderr.write(formatIssue(environment.issue) + '\n');
    return EXIT_BAD_INPUT;
  }
  const loaded = loadConfig(opts.config, environment.env);
  if (!loaded.ok) {
    for (const issue of loaded.issues) process.stderr.write(formatIssue(issue) + '\n');
    return EXIT_BAD_INPUT;
  }
  const log = new ServeLog({
    format: opts.log,
    quiet: opts.quiet === true,
    write: (text) => process.stderr.write(text),
    now: Date.now,
    // the events of one command are emitted in one go: said together once that go is over
    schedule: afterMs(0),
  });
  let daemon: RunningDaemon;
  try {
    const { startDaemon } = await import('@routeplane/daemon');
    daemon = await startDaemon(loaded.config, {
      log: (line, level, topic) => log.line(line, level, topic),
      configPath: loaded.file,
      env: process.env,
      envFile,
    });
  } catch (err) {
    log.line(`routeplane: cannot start: ${(err as Error).message}`, 'error');
    return EXIT_FAILURE;
  }
  process.stdout.write(`routeplane listening on ${daemon.url} (control: ${daemon.socketPath})\n`);
  log.start(startFacts(loaded.file, envFile, loaded.config, daemon, loaded.warnings.map(formatWarning)), daemon.context.daemonId);
  const unsubscribe = daemon.context.bus.subscribe((event) => log.event(event));

  // SIGHUP re-reads the config (and the env file); the daemon says what it did
  process.on('SIGHUP', () => {
    daemon.context.reload();
  });

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  // A second signal while draining means "now".
  const force = () => {
    log.line('routeplane: second signal, exiting without waiting for in-flight requests', 'error');
    process.exit(EXIT_FAILURE);
  };
  process.once('SIGTERM', force);
  process.once('SIGINT', force);
  log.line(`routeplane: ${signal} received, shutting down`, 'info');
  await daemon.close();
  unsubscribe();
  log.flush();
  return 0;
}

function startFacts(file: string, envFile: string | null, config: Config, daemon: RunningDaemon, warnings: string[]): StartFacts {
  return {
    configPath: file,
    envFile,
    httpUrl: daemon.url,
    socketPath: daemon.socketPath,
    decisionLog: daemon.decisionLogPath,
    influence: config.influence,
    store: storeFacts(config, daemon),
    restored: daemon.stateFile === null ? null : { count: daemon.context.restored, from: daemon.stateFile },
    warnings,
  };
}

function storeFacts(config: Config, daemon: RunningDaemon): StoreFacts {
  const info = daemon.context.store.info();
  const shared = config.influence.shared;
  if (info.kind === 'redis' && shared !== null) {
    const url = readRedisUrl(shared.redis_url);
    // the config loader refused a URL it cannot read; never echo one it did not
    return { kind: 'redis', url: url.ok ? redisWhere(url.endpoint) : 'redis', state: info.state, daemons: info.daemons };
  }
  return { kind: 'memory', stateFile: daemon.stateFile };
}
