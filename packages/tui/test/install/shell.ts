import { spawn } from 'node:child_process';

export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Who runs a command: another user's ids (only root may ask), else the test's own user. */
export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * Runs a command line in bash, as a person pasting it would; never blocks the test's event loop.
 * In a process group of its own, so that a command that takes too long goes with everything it started.
 */
export function shell(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, as?: RunAs): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...as });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`\`${command}\` took over ${timeoutMs / 1000}s; stdout=${stdout.slice(-2000)} stderr=${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Like `shell`, but a failure is an error carrying the command's output. */
export async function mustRun(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, as?: RunAs): Promise<ShellResult> {
  const result = await shell(command, cwd, env, timeoutMs, as);
  if (result.code !== 0) {
    throw new Error(
      `\`${command}\` in ${cwd} exited ${result.code}\n--- stdout\n${result.stdout.slice(-4000)}\n--- stderr\n${result.stderr.slice(-4000)}`,
    );
  }
  return result;
}

/**
 * The environment of a person's shell: this process's, without what a
 * package manager running the tests put there (npm_*, PNPM_*), so the
 * commands under test configure themselves as they would on their own.
 */
export function personEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_)/i.test(name) && name !== 'INIT_CWD' && name !== 'NODE_OPTIONS') env[name] = value;
  }
  return { ...env, ...extra };
}
