/**
 * The daemon under test as people run it: the built CLI's `routeplane serve`
 * in a child process, with its config, socket and decision log in a
 * temporary directory of its own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { type CliProcess, isolatedEnv, spawnCli } from '../../../daemon/test/helpers/cli-process.js';

const LISTENING = /^routeplane listening on (http:\/\/127\.0\.0\.1:\d+) \(control: (.+)\)$/m;

/** One line of the decision log, as far as the agent checks read it. */
export interface LoggedDecision {
  request_id: string;
  requested: string | null;
  route: string | null;
  session: string | null;
  client: string | null;
  served_by: string | null;
  status: number;
  chain: Array<{ seat: string; model: string; state: string; reason: string | null }>;
  attempts: Array<{ seat: string; model: string; outcome: string; status: number | null; evidence: string }>;
  usage: { input_tokens: number | null; output_tokens: number | null } | null;
}

export interface ServedDaemon {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly dir: string;
  readonly process: CliProcess;
  /** every decision logged so far */
  decisions(): LoggedDecision[];
  stop(): Promise<void>;
}

/**
 * Starts `serve` on `config` (a parsed routeplane.yaml) with a free port and
 * its files in a temporary directory; `env` holds the seats' keys.
 */
export async function serve(config: Record<string, unknown>, env: Record<string, string>): Promise<ServedDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'rp-agents-'));
  const logPath = join(dir, 'decisions.ndjson');
  const server = (config.server ?? {}) as Record<string, unknown>;
  const file = join(dir, 'routeplane.yaml');
  writeFileSync(
    file,
    stringify({
      ...config,
      server: { ...server, listen: '127.0.0.1:0' },
      control: { socket: join(dir, 'control.sock') },
      decision_log: { path: logPath },
    }),
  );
  const child = spawnCli(['serve', '--config', file], isolatedEnv(dir, env), dir);
  try {
    await child.until((p) => LISTENING.test(p.stdout), 'routeplane listening');
  } catch (error) {
    child.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = LISTENING.exec(child.stdout)![1]!;
  return {
    url,
    dir,
    process: child,
    decisions() {
      let text: string;
      try {
        text = readFileSync(logPath, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LoggedDecision);
    },
    async stop() {
      if (child.child.exitCode === null && child.child.signalCode === null) {
        child.child.kill('SIGTERM');
        await child.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
