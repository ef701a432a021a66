/**
 * A README section, read as a person would copy it: its routeplane.yaml, the
 * Claude Code command line and the Codex config — "Point your agents at it"
 * (API keys), or "Seats of every kind" (the agents' own logins). The agent
 * checks run exactly these, with only the addresses changed (seats point at
 * the fake upstreams, the agents at the daemon's port).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './agents.js';

export interface ReadmeAgents {
  /** the config block, parsed */
  config: Record<string, unknown>;
  /** the variables of the Claude Code command line, in order */
  claudeCodeEnv: Record<string, string>;
  /** the Codex config.toml, verbatim */
  codexToml: string;
}

export function readmeAgents(heading = '## Point your agents at it'): ReadmeAgents {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README.md has no "${heading}" section`);
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(/^## /m);
  const section = end === -1 ? rest : rest.slice(0, end);
  const config = parse(codeBlock(section, 'yaml', heading)) as Record<string, unknown>;
  const command = codeBlock(section, 'sh', heading)
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /(^|\s)claude$/.test(line));
  if (command === undefined) throw new Error(`README.md "${heading}": no sh line that runs \`claude\``);
  const claudeCodeEnv: Record<string, string> = {};
  for (const word of command.split(/\s+/).slice(0, -1)) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (match === null) throw new Error(`README.md "${heading}": "${word}" in the Claude Code line is not NAME=value`);
    claudeCodeEnv[match[1]!] = match[2]!;
  }
  return { config, claudeCodeEnv, codexToml: codeBlock(section, 'toml', heading) };
}

/** The first fenced block of `language` in the section, without its indentation. */
function codeBlock(section: string, language: string, heading: string): string {
  const match = new RegExp(`^([ \\t]*)\`\`\`${language}\\n([\\s\\S]*?)^\\1\`\`\``, 'm').exec(section);
  if (match === null) throw new Error(`README.md "${heading}": no \`\`\`${language} block`);
  const indent = match[1]!;
  return match[2]!
    .split('\n')
    .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
    .join('\n');
}
