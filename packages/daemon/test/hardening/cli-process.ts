/**
 * The built CLI as a child process (`node packages/tui/dist/cli.js …`), for
 * the tests that need a real process: signals, exit codes, stderr lines.
 * Needs `pnpm build` first; without it the tests fail saying so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
export const CLI_PATH = join(REPO_ROOT, 'packages/tui/dist/cli.js');

export function requireBuiltCli(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`the built CLI is missing (${CLI_PATH}): run \`pnpm build\` first`);
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class CliChild {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  private waiters: Array<() => void> = [];
  private ended = false;

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
        this.ended = true;
        this.wake();
        resolveExit({ code, signal });
      });
    });
  }

  /** Waits (bounded) until `condition` holds on the output so far; fails if the process ends first. */
  async until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (this.ended)
        throw new Error(`CLI exited before ${what}; stdout=${JSON.stringify(this.stdout)} stderr=${JSON.stringify(this.stderr)}`);
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

  /** kills it if still running (a failed test must not leave a daemon behind) */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** A home directory of its own: the CLI must never find the user's config, socket or log. */
export function tempHome(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'rp-hard-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function spawnCli(args: string[], home: string, extraEnv: Record<string, string> = {}): CliChild {
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', ...extraEnv };
  return new CliChild(spawn(process.execPath, [CLI_PATH, ...args], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] }));
}

export function writeFile(path: string, lines: string[]): string {
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

export const LISTENING = /^routeplane listening on (http:\/\/127\.0\.0\.1:\d+) \(control: (.+)\)$/;
