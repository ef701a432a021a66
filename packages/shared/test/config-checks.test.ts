import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envCheck } from '../src/config/env-checks.js';
import { crossCheck } from '../src/config/cross-checks.js';
import { configWarnings } from '../src/config/warnings.js';
import { formatIssue, formatWarning, loadConfig, parseConfig, resolveConfigPaths, type ConfigView } from '../src/index.js';

const env = { KEY_A: 'a', KEY_B: 'b' };

function report(text: string, e: Record<string, string> = env): { errors: string[]; warnings: string[] } {
  const result = parseConfig(text, 'rp.yaml', e);
  return { errors: result.ok ? [] : result.issues.map(formatIssue), warnings: result.warnings.map(formatWarning) };
}

describe('config check finds every problem in one run', () => {
  it('reports schema problems and cross-checks together, in document order', () => {
    const text = `
seats:
  - { id: a, provider: anthropic, base_url: "https://x", api_key_env: KEY_MISSING }
  - { id: b, provider: anthropic, base_url: "not a url", api_key_env: KEY_B }
routes:
  - model: sonnet
    chain:
      - { seat: a, model: m }
      - { seat: ghost, model: m }
      - { seat: b, model: m }
  - { model: sonnet, chain: [{ seat: a, model: m2 }] }
influence: { enabled: true, cooldown_secs: "abc" }
`;
    expect(report(text).errors).toEqual([
      'rp.yaml: seats[0].api_key_env: environment variable KEY_MISSING is not set (line 3)',
      'rp.yaml: seats[1].base_url: expected an http(s) URL (line 4)',
      // seat b failed the schema, yet it is declared: no "unknown seat" for it
      'rp.yaml: routes[0].chain[1].seat: unknown seat "ghost" (declared: a, b) (line 9)',
      'rp.yaml: routes[1].model: duplicate route "sonnet" (line 11)',
      'rp.yaml: influence.cooldown_secs: expected a number, got "abc" (line 12)',
    ]);
  });

  it('a value that failed the schema is not reasoned about with its default', () => {
    // enabled: "yes" is an error; it must not also warn that influence is off
    const { errors, warnings } = report(`
seats: [{ id: a, provider: anthropic, base_url: "https://x", api_key_env: KEY_A }]
routes: [{ model: r, chain: [{ seat: a, model: m }] }]
influence: { enabled: "yes" }
`);
    expect(errors).toEqual(['rp.yaml: influence.enabled: expected true or false, got "yes" (line 4)']);
    expect(warnings).toEqual([]);
  });

  it('an empty file says what a config needs', () => {
    for (const text of ['', '\n\n', '# just a comment\n']) {
      expect(report(text).errors).toEqual([
        'rp.yaml: the file is empty: a config needs at least one seat (seats:, each with id, provider, base_url and api_key_env) and one route to it (routes:, each with model and chain); `routeplane config init` writes a commented starter',
      ]);
    }
  });

  it('no config anywhere names every place looked and the command that writes one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rp-none-'));
    const result = loadConfig(undefined, { HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') }, join(dir));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map(formatIssue)).toEqual([
      `routeplane: no config found (looked for ${join(dir, 'routeplane.yaml')} and ${join(dir, 'xdg', 'routeplane', 'routeplane.yaml')}); write one with \`routeplane config init\``,
    ]);
  });
});

describe('warnings', () => {
  it('influence off, a seat no route uses, a target twice in one chain — and exit-0 valid', () => {
    const result = parseConfig(
      `
seats:
  - { id: a, provider: anthropic, base_url: "https://x", api_key_env: KEY_A }
  - { id: spare, provider: openai, base_url: "https://y", api_key_env: KEY_B }
routes:
  - model: r
    chain:
      - { seat: a, model: m }
      - { seat: a, model: other }
      - { seat: a, model: m }
`,
      'rp.yaml',
      env,
    );
    expect(result.ok).toBe(true);
    expect(result.warnings.map(formatWarning)).toEqual([
      'rp.yaml: warning: seats[1].id: no route uses seat "spare" (line 4)',
      'rp.yaml: warning: routes[0].chain[2]: a/m is already chain[0]: the same target is tried twice (line 10)',
      'rp.yaml: warning: influence.enabled: routing influence is off: a seat out of credit or rate-limited keeps its place and every agent still tries it first',
    ]);
  });

  it('none for a config that uses every seat once with influence on', () => {
    expect(
      report(`
seats: [{ id: a, provider: anthropic, base_url: "https://x", api_key_env: KEY_A }]
routes: [{ model: r, chain: [{ seat: a, model: m }] }]
influence: { enabled: true }
`),
    ).toEqual({ errors: [], warnings: [] });
  });
});

describe('agents, read from whatever schema has them', () => {
  const base: ConfigView = {
    server: { listen: '127.0.0.1:4141', auth_token_env: null },
    seats: [{ id: 'a', api_key_env: 'KEY_A' }],
    routes: [
      { model: 'haiku', chain: [{ seat: 'a', model: 'm' }] },
      { model: 'opus', chain: [{ seat: 'a', model: 'm' }] },
    ],
    influence: { enabled: true },
  };
  const withAgents = (agents: NonNullable<ConfigView['server']>['agents']): ConfigView => ({ ...base, server: { ...base.server, agents } });

  it('warns about a route that no agent may use', () => {
    const config = withAgents([
      { id: 'ci', token_env: 'T1', allow: ['haiku'], deny: [] },
      { id: 'me', token_env: 'T2', allow: [], deny: ['opus'] },
    ]);
    expect(configWarnings(config)).toEqual([
      { path: ['routes', 1, 'model'], message: `no agent may use route "opus" (every agent's allow/deny leaves it out)` },
    ]);
    // the auth_token_env token is one more agent, with no limits
    expect(configWarnings({ ...config, server: { ...config.server, auth_token_env: 'RP_TOKEN' } })).toEqual([]);
  });

  it('requires every agent token variable, and tokens that differ (naming variables, never values)', () => {
    const config = withAgents([
      { id: 'ci', token_env: 'T1' },
      { id: 'me', token_env: 'T2' },
      { id: 'ops', token_env: 'T3' },
    ]);
    const issues = envCheck(config, { KEY_A: 'k', T1: 'same-secret', T2: 'same-secret' });
    expect(issues).toEqual([
      { path: ['server', 'agents', 1, 'token_env'], message: 'T2 holds the same token as T1: tokens must differ' },
      { path: ['server', 'agents', 2, 'token_env'], message: 'environment variable T3 is not set', unsetVariable: 'T3' },
    ]);
    expect(JSON.stringify(issues)).not.toContain('same-secret');
  });

  it('agents count as a token off loopback', () => {
    const open: ConfigView = { ...base, server: { listen: '0.0.0.0:4141', auth_token_env: null } };
    expect(crossCheck(open).map((i) => i.path.join('.'))).toEqual(['server.auth_token_env']);
    expect(crossCheck({ ...open, server: { ...open.server, agents: [{ id: 'me', token_env: 'T' }] } })).toEqual([]);
  });
});

describe('relative paths in the config are relative to its directory', () => {
  it('control.socket and decision_log.path, read from another directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rp-rel-'));
    mkdirSync(join(dir, 'conf'));
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(
      join(dir, 'conf', 'routeplane.yaml'),
      `
control: { socket: run/control.sock }
decision_log: { path: ../logs/decisions.ndjson }
seats: [{ id: a, provider: anthropic, base_url: "https://x", api_key_env: KEY_A }]
routes: [{ model: r, chain: [{ seat: a, model: m }] }]
`,
    );
    const result = loadConfig('../conf/routeplane.yaml', env, join(dir, 'elsewhere'));
    if (!result.ok) throw new Error(result.issues.map(formatIssue).join('\n'));
    expect(result.config.control.socket).toBe(join(dir, 'conf', 'run', 'control.sock'));
    expect(result.config.decision_log.path).toBe(join(dir, 'logs', 'decisions.ndjson'));
  });

  it('leaves absolute paths, null and false alone; influence.state_file too when the schema has it', () => {
    const config = {
      control: { socket: '/abs/control.sock' },
      decision_log: { path: false, max_mb: 64 },
      influence: { enabled: true, state_file: 'state/breakers.json' },
      seats: [],
    };
    expect(resolveConfigPaths(config, '/etc/rp')).toEqual({
      control: { socket: '/abs/control.sock' },
      decision_log: { path: false, max_mb: 64 },
      influence: { enabled: true, state_file: '/etc/rp/state/breakers.json' },
      seats: [],
    });
    expect(resolveConfigPaths({ control: { socket: null } }, '/etc/rp')).toEqual({ control: { socket: null } });
  });
});
