import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';

beforeAll(requireBuiltCli);

const cleanups: Array<() => unknown> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup(yaml: string): { dir: string; file: string } {
  const h = tempHome();
  cleanups.push(h.remove);
  const file = join(h.dir, 'routeplane.yaml');
  writeFileSync(file, yaml);
  return { dir: h.dir, file };
}

const VALID = `
seats:
  - { id: max-a, provider: anthropic, base_url: "https://api.anthropic.com", api_key_env: RP_KEY_A }
  - { id: team, provider: openai, base_url: "https://api.openai.com/v1", api_key_env: RP_KEY_B }
routes:
  - model: sonnet
    chain: [{ seat: max-a, model: claude-sonnet-4-5 }]
influence: { enabled: true }
`;

describe('routeplane config check', () => {
  it('names the file and what it holds in one line when valid', async () => {
    const { dir, file } = setup(VALID);
    const result = await runCli(['config', 'check', '--config', file], isolatedEnv(dir, { RP_KEY_A: 'a', RP_KEY_B: 'b' }), dir);
    expect(result).toEqual({ code: 0, signal: null, stdout: `✓ ${file}: valid — 2 seats, 1 route, influence on\n`, stderr: '' });
  });

  it('finds ./routeplane.yaml without --config', async () => {
    const { dir, file } = setup(VALID);
    const result = await runCli(['config', 'check'], isolatedEnv(dir, { RP_KEY_A: 'a', RP_KEY_B: 'b' }), dir);
    expect(result.stdout).toBe(`✓ ${file}: valid — 2 seats, 1 route, influence on\n`);
  });

  it('lists every problem, one per line as FILE: path: message, and exits 2', async () => {
    const { dir, file } = setup(VALID.replace('influence: { enabled: true }', 'influence: { enabled: true, trip_treshold: 3 }'));
    const result = await runCli(['config', 'check', '--config', file], isolatedEnv(dir), dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/: influence\.trip_treshold: unknown key/);
    expect(lines[0]!.startsWith(`${file}: `)).toBe(true);

    // with the typo fixed, the missing key variables are named (and only named)
    const { dir: dir2, file: file2 } = setup(VALID);
    const missing = await runCli(['config', 'check', '--config', file2], isolatedEnv(dir2), dir2);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${file2.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: seats\\[0\\]\\.api_key_env: environment variable RP_KEY_A is not set`,
        ),
      ),
      expect.stringMatching(/seats\[1\]\.api_key_env: environment variable RP_KEY_B is not set/),
    ]);
  });

  it('says which file is missing', async () => {
    const { dir } = setup(VALID);
    const result = await runCli(['config', 'check', '--config', join(dir, 'nope.yaml')], isolatedEnv(dir), dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${join(dir, 'nope.yaml')}: file not found\n`);
  });
});
