import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
export const CLI_PATH = join(REPO_ROOT, 'packages/tui/dist/cli.js');

/** CLI tests run the built CLI; without a build they fail saying so, not with a puzzle. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(`the built CLI is missing (${CLI_PATH}): run \`pnpm build\` before the CLI tests`);
  }
}

/**
 * A home of its own for every CLI run: the CLI must never find the user's
 * config, socket or decision log, and colour is off so output is verbatim.
 */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    NO_COLOR: '1',
    ...extra,
  };
  return env;
}

export function tempHome(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'rp-cli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A running CLI process. Spawned asynchronously: the daemon under test lives
 * in this process, and a blocking spawn would keep it from answering.
 */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<CliResult>;
  private waiters: Array<() => void> = [];

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      this.stdout += text;
      this.wake();
    });
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      this.stderr += text;
      this.wake();
    });
    this.exited = new Promise((resolveExit) => {
      child.once('close', (code, signal) => {
        this.wake();
        resolveExit({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  get stdoutLines(): string[] {
    return this.stdout.split('\n').filter((l) => l !== '');
  }

  /** Resolves once `condition` holds on the output so far; rejects if the process ends first. */
  async until(condition: (p: CliProcess) => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.exited.then(() => (ended = true));
    while (!condition(this)) {
      if (ended) throw new Error(`CLI exited before ${what}; stdout=${JSON.stringify(this.stdout)} stderr=${JSON.stringify(this.stderr)}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timed out waiting for ${what}; stdout=${JSON.stringify(this.stdout)} stderr=${JSON.stringify(this.stderr)}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}

export function spawnCli(args: string[], env: Record<string, string>, cwd: string): CliProcess {
  return new CliProcess(spawn(process.execPath, [CLI_PATH, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
}

export function runCli(args: string[], env: Record<string, string>, cwd: string): Promise<CliResult> {
  return spawnCli(args, env, cwd).exited;
}
