import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { isolatedEnv, requireBuiltCli, runCli, tempHomeFor } from '../../../daemon/test/helpers/cli-process.js';

beforeAll(requireBuiltCli);

/** A HOME of its own for one test, holding `yaml` as its routeplane.yaml. */
function setup(test: TestContext, yaml: string): { dir: string; file: string } {
  const h = tempHomeFor(test);
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
    chain: [{ seat: max-a, model: claude-sonnet-5 }]
  - model: gpt
    chain: [{ seat: team, model: gpt-5 }]
influence: { enabled: true }
`;
const KEYS = { RP_KEY_A: 'a', RP_KEY_B: 'b' };

// Each case has a HOME and config file of its own: the cases run side by side.
describe.concurrent('routeplane config check', () => {
  it('names the file and what it holds in one line when valid', async (test) => {
    const { dir, file } = setup(test, VALID);
    const result = await runCli(['config', 'check', '--config', file], isolatedEnv(dir, KEYS), dir);
    expect(result).toEqual({ code: 0, signal: null, stdout: `✓ ${file}: valid — 2 seats, 2 routes, influence on\n`, stderr: '' });
  });

  it('finds ./routeplane.yaml without --config', async (test) => {
    const { dir, file } = setup(test, VALID);
    const result = await runCli(['config', 'check'], isolatedEnv(dir, KEYS), dir);
    expect(result.stdout).toBe(`✓ ${file}: valid — 2 seats, 2 routes, influence on\n`);
  });

  it('prints warnings one per line as FILE: warning: path: message and still exits 0', async (test) => {
    const { dir, file } = setup(
      test,
      VALID.replace('influence: { enabled: true }', '').replace('{ seat: team, model: gpt-5 }', '{ seat: max-a, model: gpt-5 }'),
    );
    const result = await runCli(['config', 'check', '--config', file], isolatedEnv(dir, KEYS), dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`✓ ${file}: valid — 2 seats, 2 routes, influence off, 2 warnings\n`);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `${file}: warning: seats[1].id: no route uses seat "team" (line 4)`,
      `${file}: warning: influence.enabled: routing influence is off: a seat out of credit or rate-limited keeps its place and every agent still tries it first`,
    ]);
  });

  it('lists every problem — schema, cross-checks, environment — in one run, one per line, and exits 2', async (test) => {
    const broken = VALID.replace('influence: { enabled: true }', 'influence: { enabled: true, trip_treshold: 3, cooldown_secs: "abc" }')
      .replace('{ seat: team, model: gpt-5 }', '{ seat: nobody, model: gpt-5 }')
      .replace('https://api.openai.com/v1', 'api.openai.com');
    const { dir, file } = setup(test, broken);
    const result = await runCli(['config', 'check', '--config', file], isolatedEnv(dir, { RP_KEY_A: 'a' }), dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `${file}: seats[1].base_url: expected an http(s) URL (line 4)`,
      `${file}: seats[1].api_key_env: environment variable RP_KEY_B is not set (line 4)`,
      `${file}: routes[1].chain[0].seat: unknown seat "nobody" (declared: max-a, team) (line 9)`,
      `${file}: influence.cooldown_secs: expected a number, got "abc" (line 10)`,
      `${file}: influence.trip_treshold: unknown key (did you mean trip_threshold?) (line 10)`,
      // a variable that is not set may be one the daemon reads from a file
      "routeplane: variables are read from this shell's environment; a daemon that gets them from a file (`serve --env-file FILE`) is checked with `config check --env-file FILE`",
      // the unused seat is a warning, after the errors
      `${file}: warning: seats[1].id: no route uses seat "team" (line 4)`,
    ]);
  });

  it('an empty file says what a config needs', async (test) => {
    const { dir, file } = setup(test, '# to be written\n');
    const result = await runCli(['config', 'check', '--config', file], isolatedEnv(dir), dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^${regexQuoted(file)}: the file is empty: a config needs at least one seat .*\`routeplane config init\` writes a commented starter\\n$`,
      ),
    );
  });

  it('says which file is missing, and how to write it', async (test) => {
    const { dir } = setup(test, VALID);
    const missing = join(dir, 'nope.yaml');
    const result = await runCli(['config', 'check', '--config', missing], isolatedEnv(dir), dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${missing}: file not found (\`routeplane config init --path ${missing}\` writes one)\n`);
  });

  it('no config anywhere: exit 2 and one line naming every place looked and `routeplane config init`', async (test) => {
    const h = tempHomeFor(test);
    const cwd = join(h.dir, 'project');
    mkdirSync(cwd);
    for (const command of [['config', 'check'], ['serve']]) {
      const result = await runCli(command, isolatedEnv(h.dir), cwd);
      expect(result.code, command.join(' ')).toBe(2);
      expect(result.stderr).toBe(
        `routeplane: no config found (looked for ${join(cwd, 'routeplane.yaml')} and ${join(h.dir, '.config', 'routeplane', 'routeplane.yaml')}); write one with \`routeplane config init\`\n`,
      );
    }
  });
});

function regexQuoted(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
