/**
 * Runs the real agents headless, each in a home of its own, with only
 * loopback reachable (the outside trap is their proxy for anything else).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliProcess } from '../../../daemon/test/helpers/cli-process.js';
import { claudeCodeBinary, codexCommand } from './agents.js';

const AGENT_TIMEOUT_MS = 90_000;

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A prompt hook on Stop: Claude Code asks its small/fast model whether the
 * task is done. Headless (`-p`) and on loopback it is the one place Claude
 * Code 2.1.197 calls that model (its other uses need a terminal, a claude.ai
 * login or a page fetched over HTTPS).
 */
const SETTINGS = { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Is the task finished? $ARGUMENTS' }] }] } };

export interface ClaudeCodeRun extends AgentRun {
  /** the `--output-format json` result, when it printed one */
  result: { subtype?: string; is_error?: boolean; result?: string; session_id?: string; num_turns?: number } | null;
}

/** A working directory and home for one agent; removed by `remove`. */
export function agentPlace(): { dir: string; home: string; work: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'rp-agent-'));
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
  return { dir, home, work, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function runClaudeCode(opts: {
  env: Record<string, string>;
  outside: Record<string, string>;
  home: string;
  work: string;
  sessionId: string;
  prompt: string;
}): Promise<ClaudeCodeRun> {
  mkdirSync(join(opts.home, '.claude'), { recursive: true });
  writeFileSync(join(opts.home, '.claude', 'settings.json'), JSON.stringify(SETTINGS));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: opts.home,
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...opts.outside,
    ...opts.env,
  };
  const args = ['-p', opts.prompt, '--output-format', 'json', '--session-id', opts.sessionId];
  const run = await runProcess(claudeCodeBinary(), args, env, opts.work);
  let result: ClaudeCodeRun['result'] = null;
  try {
    result = JSON.parse(run.stdout) as ClaudeCodeRun['result'];
  } catch {
    result = null;
  }
  return { ...run, result };
}

export interface CodexRun extends AgentRun {
  /** the `--json` events it printed */
  events: Array<{ type?: string; item?: { type?: string; text?: string }; usage?: object }>;
}

export async function runCodex(opts: {
  codexHome: string;
  outside: Record<string, string>;
  home: string;
  work: string;
  prompt: string;
  /** more environment (a variable `env_http_headers` reads) */
  env?: Record<string, string>;
}): Promise<CodexRun> {
  const env = { PATH: process.env.PATH ?? '', HOME: opts.home, CODEX_HOME: opts.codexHome, ...opts.outside, ...opts.env };
  const [program, args] = codexCommand(['exec', '--skip-git-repo-check', '--json', opts.prompt]);
  const run = await runProcess(program, args, env, opts.work);
  const events: CodexRun['events'] = [];
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as CodexRun['events'][number]);
    } catch {
      // a partial line is not an event
    }
  }
  return { ...run, events };
}

async function runProcess(program: string, args: string[], env: Record<string, string>, cwd: string): Promise<AgentRun> {
  const child = new CliProcess(spawn(program, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
  const timer = setTimeout(() => child.child.kill('SIGKILL'), AGENT_TIMEOUT_MS);
  const exit = await child.exited;
  clearTimeout(timer);
  return { code: exit.code, stdout: exit.stdout, stderr: exit.stderr };
}
