import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { configSchema, loadConfig, parseConfig, seatAuth } from '@routeplane/shared';
import { isolatedEnv, requireBuiltCli, runCli, tempHomeFor } from '../../../daemon/test/helpers/cli-process.js';

beforeAll(requireBuiltCli);

const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../../..');
const TEMPLATE = readFileSync(join(REPO_ROOT, 'packages/tui/templates/routeplane.yaml'), 'utf8');
const KEY_VARIABLES = { ANTHROPIC_KEY_WORK: 'k1', ANTHROPIC_KEY_PERSONAL: 'k2', OPENAI_API_KEY: 'k3', OPENROUTER_KEY: 'k4' };

// Each case writes into a HOME of its own: the cases run side by side.
describe.concurrent('routeplane config init', () => {
  it('writes the commented starter where every directory finds it, and says what to do next', async (test) => {
    const dir = tempHomeFor(test).dir;
    const cwd = join(dir, 'somewhere');
    mkdirSync(cwd);
    const result = await runCli(['config', 'init'], isolatedEnv(dir), cwd);
    const written = join(dir, '.config', 'routeplane', 'routeplane.yaml');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `wrote ${written}\n` +
        'next: edit the seats and routes to yours, put the keys they name (ANTHROPIC_KEY_WORK, ANTHROPIC_KEY_PERSONAL, OPENAI_API_KEY, OPENROUTER_KEY) in a file of NAME=value lines, then\n' +
        '  routeplane config check --env-file FILE\n',
    );
    expect(readFileSync(written, 'utf8')).toBe(TEMPLATE);
    expect(TEMPLATE).toMatch(/^# /m); // commented

    // discovery from another directory now finds it
    const check = await runCli(['config', 'check'], isolatedEnv(dir, KEY_VARIABLES), cwd);
    expect(check.stdout + check.stderr).toContain(written);
  });

  it('--path writes there (relative to the current directory), creating its directory', async (test) => {
    const dir = tempHomeFor(test).dir;
    const result = await runCli(['config', 'init', '--path', 'conf/rp.yaml'], isolatedEnv(dir), dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  routeplane config check --config ${join(dir, 'conf', 'rp.yaml')} --env-file FILE\n`);
    expect(readFileSync(join(dir, 'conf', 'rp.yaml'), 'utf8')).toBe(TEMPLATE);
  });

  it('keeps breakers across restarts in breakers.json next to the file it wrote', async (test) => {
    const dir = tempHomeFor(test).dir;
    const result = await runCli(['config', 'init', '--path', 'conf/rp.yaml'], isolatedEnv(dir), dir);
    expect(result.code).toBe(0);
    expect((parse(TEMPLATE) as { influence: { state_file: unknown } }).influence.state_file).toBe('breakers.json');
    // read from elsewhere, as serve started in another directory reads it
    const loaded = loadConfig(join(dir, 'conf', 'rp.yaml'), KEY_VARIABLES, '/');
    expect(loaded.ok && loaded.config.influence).toMatchObject({ enabled: true, state_file: join(dir, 'conf', 'breakers.json') });
  });

  it('refuses to overwrite an existing file and leaves it as it was (exit 1)', async (test) => {
    const dir = tempHomeFor(test).dir;
    const file = join(dir, 'routeplane.yaml');
    writeFileSync(file, 'mine: true\n');
    const result = await runCli(['config', 'init', '--path', file], isolatedEnv(dir), dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `routeplane: ${file} already exists; not overwriting it (check it with \`routeplane config check --config ${file}\`)\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('mine: true\n');
  });

  it('the starter passes config check with its key variables set, with no warnings', async (test) => {
    const dir = tempHomeFor(test).dir;
    const file = join(dir, 'routeplane.yaml');
    await runCli(['config', 'init', '--path', file], isolatedEnv(dir), dir);
    expect(existsSync(file)).toBe(true);
    const result = await runCli(['config', 'check', '--config', file], isolatedEnv(dir, KEY_VARIABLES), dir);
    // `aliases` is a v2 key: until the schema has it, it is the one thing refused
    if ('aliases' in configSchema.shape) {
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toBe(`✓ ${file}: valid — 4 seats, 3 routes, influence on\n`);
    } else {
      expect(result.code).toBe(2);
      const line =
        TEMPLATE.split('\n').indexOf('aliases: # the model ids clients send on their own, mapped to a route; * matches anything') + 1;
      expect(result.stderr).toBe(`${file}: aliases: unknown key (line ${line})\n`);
    }
  });

  it('maps what Claude Code and Codex ask for to routes, with current model ids', () => {
    const starter = parse(TEMPLATE) as {
      seats: Array<{ provider: string }>;
      routes: Array<{ model: string; chain: Array<{ model: string }> }>;
      aliases: Record<string, string>;
    };
    expect(new Set(starter.seats.map((s) => s.provider))).toEqual(new Set(['anthropic', 'openai']));
    expect(starter.routes.map((r) => r.model)).toEqual(['sonnet', 'haiku', 'gpt']);
    expect(starter.aliases['claude-haiku-*']).toBe('haiku');
    const targets = starter.routes.flatMap((r) => r.chain.map((t) => t.model));
    expect(targets).toEqual(expect.arrayContaining(['claude-sonnet-5', 'claude-haiku-4-5', 'gpt-5']));
  });

  it('comments out one seat of each other kind, each valid as written once uncommented', () => {
    const lines = TEMPLATE.split('\n');
    const start = lines.findIndex((l) => l.startsWith('  # Seats of other kinds'));
    const examples = lines.slice(start + 1, lines.indexOf('routes:')).map((l) => l.replace(/^ {2}# /, '  '));
    const seats = (parse(`seats:\n${examples.join('\n')}`) as { seats: Array<{ id: string }> }).seats;
    expect(seats.map((s) => s.id)).toEqual(['claude-login', 'chatgpt-login', 'openrouter-claude', 'local']);
    const text = TEMPLATE.replace(lines.slice(start + 1, lines.indexOf('routes:')).join('\n'), examples.join('\n')).replace(
      'routes:\n',
      `routes:\n${seats.map((s) => `  - { model: try-${s.id}, chain: [{ seat: ${s.id}, model: m }] }\n`).join('')}`,
    );
    const result = parseConfig(text, 'starter', KEY_VARIABLES);
    expect(result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([]);
    if (!result.ok) return;
    expect(result.config.seats.slice(4).map((s) => [s.id, seatAuth(s), s.api_path])).toEqual([
      ['claude-login', 'passthrough', '/v1'],
      ['chatgpt-login', 'passthrough', ''],
      ['openrouter-claude', 'bearer', '/v1'],
      ['local', 'none', '/v1'],
    ]);
  });

  it("is the README's Configure example, word for word", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configure'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBe(TEMPLATE);
  });
});
