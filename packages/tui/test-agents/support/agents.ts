/**
 * The real agents the agent checks run: pinned versions, installed once into
 * a cache directory outside the workspace's dependencies (they are large:
 * Claude Code ships a native binary of about 245 MB) and reused while they
 * are present and answer `--version` with the pinned version.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** 2.1.197 is the last Claude Code whose engines allow Node 20. */
export const CLAUDE_CODE_VERSION = '2.1.197';
export const CODEX_VERSION = '0.171.0';

export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
export const AGENTS_DIR = join(REPO_ROOT, 'node_modules/.cache/routeplane-agents');

const MODULES = join(AGENTS_DIR, 'node_modules');

/**
 * The native Claude Code binary. The wrapper package's postinstall copies it
 * over `bin/claude.exe`, but an npm that blocks install scripts leaves a stub
 * there, so the binary is taken from the platform package itself.
 */
export function claudeCodeBinary(): string {
  return join(MODULES, `@anthropic-ai/claude-code-${platformKey()}`, 'claude');
}

/** Codex's launcher (it finds its platform package's binary itself). */
export function codexLauncher(): string {
  return join(MODULES, '@openai/codex/bin/codex.js');
}

/** The command line that runs Codex: `[program, ...args]`. */
export function codexCommand(args: string[]): [string, string[]] {
  return [process.execPath, [codexLauncher(), ...args]];
}

function platformKey(): string {
  const base = `${process.platform}-${process.arch}`;
  if (process.platform !== 'linux') return base;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report.header?.glibcVersionRuntime === undefined ? `${base}-musl` : base;
}

export interface InstalledAgents {
  claudeCode: string;
  codex: string;
  /** false when the cache already held both pinned versions */
  installed: boolean;
}

/** Installs the pinned agents unless the cache already has them; throws naming what failed. */
export function installAgents(): InstalledAgents {
  let installed = false;
  if (!versionsMatch()) {
    mkdirSync(AGENTS_DIR, { recursive: true });
    const manifest = {
      name: 'routeplane-agents',
      private: true,
      description: 'Real agents for `pnpm test:agents`; installed by packages/tui/test-agents/support/agents.ts',
      dependencies: { '@anthropic-ai/claude-code': CLAUDE_CODE_VERSION, '@openai/codex': CODEX_VERSION },
    };
    writeFileSync(join(AGENTS_DIR, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: AGENTS_DIR,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (npm.error !== undefined || npm.status !== 0) {
      throw new Error(`installing the agents into ${AGENTS_DIR} failed: ${npm.error?.message ?? npm.stderr.trim()}`);
    }
    installed = true;
    const problem = versionProblem();
    if (problem !== null) throw new Error(`after installing into ${AGENTS_DIR}: ${problem}`);
  }
  return { claudeCode: claudeCodeBinary(), codex: codexLauncher(), installed };
}

function versionsMatch(): boolean {
  return versionProblem() === null;
}

/** null when both agents are there and answer with their pinned versions, else what is wrong. */
function versionProblem(): string | null {
  if (!existsSync(claudeCodeBinary())) return `Claude Code's binary is missing (${claudeCodeBinary()})`;
  if (!existsSync(codexLauncher())) return `Codex's launcher is missing (${codexLauncher()})`;
  const claude = spawnSync(claudeCodeBinary(), ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  if (!claude.stdout?.startsWith(`${CLAUDE_CODE_VERSION} `))
    return `claude --version said ${JSON.stringify(claude.stdout ?? claude.error?.message)}`;
  const [program, args] = codexCommand(['--version']);
  const codex = spawnSync(program, args, { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  if (codex.stdout?.trim() !== `codex-cli ${CODEX_VERSION}`)
    return `codex --version said ${JSON.stringify(codex.stdout ?? codex.error?.message)}`;
  const wrapper = JSON.parse(readFileSync(join(MODULES, '@anthropic-ai/claude-code/package.json'), 'utf8')) as { version: string };
  if (wrapper.version !== CLAUDE_CODE_VERSION) return `the cache holds Claude Code ${wrapper.version}`;
  return null;
}
