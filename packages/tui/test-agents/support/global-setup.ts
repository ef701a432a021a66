/**
 * Runs once before the agent checks: the daemon under test is the built CLI
 * (`routeplane serve`), and the agents are the pinned real ones.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUDE_CODE_VERSION, CODEX_VERSION, installAgents, REPO_ROOT } from './agents.js';

export default function setup(): void {
  const cli = join(REPO_ROOT, 'packages/tui/dist/cli.js');
  if (!existsSync(cli)) throw new Error(`the built CLI is missing (${cli}): run \`pnpm build\` first`);
  const started = Date.now();
  const agents = installAgents();
  const how = agents.installed ? `installed in ${Math.round((Date.now() - started) / 1000)}s` : 'from the cache';
  process.stdout.write(`agents: Claude Code ${CLAUDE_CODE_VERSION} and Codex ${CODEX_VERSION} (${how})\n`);
}
