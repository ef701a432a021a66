/**
 * The one harness for running the built CLI (`node packages/tui/dist/cli.js …`)
 * as a child process, for the tests that need a real process: exit codes,
 * signals, stdout/stderr lines, `routeplane serve` as a daemon of its own.
 *
 * It lives with the daemon's test helpers so that every test import across
 * packages points the same way as the product's (tui → daemon): the tui's
 * tests import it by relative path; it imports no source of either package,
 * it only runs the built file. Needs `pnpm build` first; without it the tests
 * fail saying so.
 *
 *   beforeAll(requireBuiltCli);
 *   const home = tempHome();
 *   const result = await runCli(['status'], isolatedEnv(home.dir), home.dir);
 *   const serve = spawnCli(['serve', '--config', file], isolatedEnv(home.dir, { KEY: 'sk-…' }), home.dir);
 *   const { url, socket } = await serve.listening();
 *   await serve.until((p) => p.stderr.includes('shutting down'), 'the shutdown line');
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';

export const CLI_PATH = fileURLToPath(new URL('../../../tui/dist/cli.js', import.meta.url));

/** Without a build the CLI tests fail with this, not with a puzzle. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`the built CLI is missing (${CLI_PATH}): run \`pnpm build\` first`);
}

export interface TempHome {
  readonly dir: string;
  remove(): void;
}

/** A directory of its own for one CLI run: the CLI must never find the user's config, socket or log. */
export function tempHome(prefix = 'rp-cli-'): TempHome {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A tempHome removed when `test` ends. Tests that run side by side (`describe.concurrent`) need
 * this: a file-wide afterEach list would remove another running test's directory.
 */
export function tempHomeFor(test: TestContext, prefix?: string): TempHome {
  const home = tempHome(prefix);
  test.onTestFinished(home.remove);
  return home;
}

/** An environment that points HOME and XDG_CONFIG_HOME at `home`, with colour off so output is verbatim. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', ...extra };
}

/** Writes `lines` as a text file (a YAML config, usually) and returns its path. */
export function writeLines(path: string, lines: string[]): string {
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The first line `routeplane serve` prints. */
export const LISTENING = /^routeplane listening on (http:\/\/127\.0\.0\.1:(\d+)) \(control: (.+)\)$/;

export interface Listening {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** the control socket path */
  socket: string;
}

/** Bound for the CLI to print what a test waits for: node start and module loading on two busy cores. */
const OUTPUT_WAIT_MS = 20_000;

/**
 * A running CLI process. Spawned asynchronously: a daemon under test may live
 * in the test's own process, and a blocking spawn would keep it from answering.
 */
export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<CliResult>;
  private ended = false;
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
        this.ended = true;
        this.wake();
        resolveExit({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  /** complete lines of stdout so far */
  get stdoutLines(): string[] {
    return this.stdout.split('\n').filter((l) => l !== '');
  }

  /**
   * Resolves once `condition` holds on the output so far, woken by each piece
   * of output (no polling); rejects if the process ends first or the bound passes.
   */
  async until(condition: (p: CliProcess) => boolean, what: string, timeoutMs = OUTPUT_WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition(this)) {
      if (this.ended) throw new Error(`CLI exited before ${what}; ${this.describeOutput()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; ${this.describeOutput()}`);
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
  }

  /** The first stdout line matching `pattern`, once it is printed in full. */
  async line(pattern: RegExp, what = `a line matching ${pattern}`): Promise<string> {
    const find = (): string | undefined =>
      this.stdout
        .split('\n')
        .slice(0, -1)
        .find((l) => pattern.test(l));
    await this.until(() => find() !== undefined, what);
    return find()!;
  }

  /** `routeplane serve`'s first line, parsed: where it listens. */
  async listening(): Promise<Listening> {
    await this.until((p) => p.stdout.includes('\n'), 'the listening line');
    const first = this.stdout.split('\n')[0]!;
    const match = LISTENING.exec(first);
    if (match === null) throw new Error(`serve's first line is not the listening line: ${JSON.stringify(first)}; ${this.describeOutput()}`);
    return { url: match[1]!, port: Number(match[2]), socket: match[3]! };
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGKILL if still running (a failed test must not leave a daemon behind), and wait for the exit. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }

  private describeOutput(): string {
    return `stdout=${JSON.stringify(this.stdout)} stderr=${JSON.stringify(this.stderr)}`;
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv, cwd: string): CliProcess {
  return new CliProcess(spawn(process.execPath, [CLI_PATH, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliResult> {
  return spawnCli(args, env, cwd).exited;
}
