import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCandidates, formatIssue, isLoopback, loadConfig, parseConfig } from '../src/index.js';

const env = { KEY_A: 'sk-secret-a', KEY_B: 'sk-secret-b' };
const minimal = `
seats:
  - id: work-max
    provider: anthropic
    base_url: https://api.anthropic.com
    api_key_env: KEY_A
  - id: personal
    provider: openai
    base_url: http://127.0.0.1:9/v1
    api_key_env: KEY_B
routes:
  - model: sonnet
    chain:
      - { seat: work-max, model: claude-sonnet-5 }
      - { seat: personal, model: gpt-5 }
`;

function errors(text: string, e: Record<string, string> = env): string[] {
  const r = parseConfig(text, 'rp.yaml', e);
  if (r.ok) throw new Error('expected errors');
  return r.issues.map(formatIssue);
}

describe('config', () => {
  it('fills every default from the spec', () => {
    const r = parseConfig(minimal, 'rp.yaml', env);
    if (!r.ok) throw new Error(r.issues.map(formatIssue).join('\n'));
    expect(r.config.server).toEqual({ listen: '127.0.0.1:4141', auth_token_env: null, agents: [], body_limit_mb: 32 });
    expect(r.config.control).toEqual({ socket: null });
    expect(r.config.decision_log).toEqual({ path: null, max_mb: 64, keep: 3 });
    expect(r.config.timeouts).toEqual({ connect_ms: 10_000, first_byte_ms: 120_000, idle_ms: 120_000 });
    expect(r.config.influence).toEqual({
      enabled: false,
      cooldown_secs: 60,
      max_cooldown_secs: 900,
      trip_threshold: 3,
      window_secs: 300,
      max_quota_secs: 604_800,
      trip_on_rejected_key: true,
      state_file: null,
      shared: null,
    });
    expect(r.config.seats[0]?.headers).toEqual({});
    expect(r.config.seats[0]?.reserve_pct).toBe(0);
    expect(r.config.aliases).toEqual({});
    expect(r.config.routes[0]).toMatchObject({ balance: 'ordered', lane: null, retry: null });
    expect(r.config.routes[0]?.chain[0]).toMatchObject({ weight: 1, cost_per_mtok: null });
  });

  it('rejects an unknown key by its path, with the file and line', () => {
    expect(errors(minimal + 'influence:\n  enabled: true\n  trip_treshold: 3\n')).toEqual([
      'rp.yaml: influence.trip_treshold: unknown key (did you mean trip_threshold?) (line 18)',
    ]);
  });

  it('lists every problem at once: types, seat references, duplicates', () => {
    const text = `
server: { listen: "nowhere" }
seats:
  - { id: Bad_Id, provider: azure, base_url: "ftp://x", api_key_env: KEY_A }
routes:
  - { model: r, chain: [] }
influence: { cooldown_secs: "60" }
`;
    const out = errors(text);
    expect(out).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^rp\.yaml: server\.listen: expected host:port/),
        expect.stringMatching(/^rp\.yaml: seats\[0\]\.id: /),
        expect.stringMatching(/^rp\.yaml: seats\[0\]\.provider: /),
        expect.stringMatching(/^rp\.yaml: seats\[0\]\.base_url: expected an http\(s\) URL/),
        expect.stringMatching(/^rp\.yaml: routes\[0\]\.chain: a chain needs at least one target/),
        expect.stringMatching(/^rp\.yaml: influence\.cooldown_secs: /),
      ]),
    );
    expect(out).toHaveLength(6);
  });

  it('cross-checks seat references and unique names', () => {
    const text = minimal.replace('seat: personal', 'seat: nobody') + '  - model: sonnet\n    chain: [{ seat: personal, model: x }]\n';
    expect(errors(text)).toEqual([
      expect.stringMatching(/^rp\.yaml: routes\[0\]\.chain\[1\]\.seat: unknown seat "nobody"/),
      expect.stringMatching(/^rp\.yaml: routes\[1\]\.model: duplicate route "sonnet"/),
    ]);
  });

  it('names a missing key variable and never prints a value', () => {
    const out = errors(minimal, { KEY_A: 'sk-secret-a' });
    expect(out).toEqual([expect.stringMatching(/seats\[1\]\.api_key_env: environment variable KEY_B is not set/)]);
    expect(out.join('\n')).not.toContain('sk-secret');
  });

  it('requires auth_token_env off loopback, and its variable to be set', () => {
    expect(errors(minimal + 'server: { listen: "0.0.0.0:4141" }\n')).toEqual([
      expect.stringMatching(/^rp\.yaml: server\.auth_token_env: required when listen \(0\.0\.0\.0:4141\) is not a loopback address/),
    ]);
    expect(errors(minimal + 'server: { listen: "0.0.0.0:4141", auth_token_env: RP_TOKEN }\n')).toEqual([
      expect.stringMatching(/^rp\.yaml: server\.auth_token_env: environment variable RP_TOKEN is not set/),
    ]);
    expect(isLoopback('127.9.0.1')).toBe(true);
    expect(isLoopback('[::1]')).toBe(true);
    expect(isLoopback('localhost')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
  });

  it('reports YAML syntax errors with their line', () => {
    const out = errors('seats:\n  - id: a\n   bad: [\n');
    expect(out.length).toBeGreaterThan(0);
    for (const line of out) expect(line).toMatch(/^rp\.yaml: invalid YAML: [^\n]+ \(line [34]\)$/);
  });

  it('discovers --config, then $ROUTEPLANE_CONFIG, then ./routeplane.yaml, then XDG', () => {
    expect(configCandidates('x.yaml', {}, '/w')).toEqual(['/w/x.yaml']);
    expect(configCandidates(undefined, { ROUTEPLANE_CONFIG: '/e.yaml' }, '/w')).toEqual(['/e.yaml']);
    expect(configCandidates(undefined, { XDG_CONFIG_HOME: '/xdg' }, '/w')).toEqual([
      '/w/routeplane.yaml',
      '/xdg/routeplane/routeplane.yaml',
    ]);
    expect(configCandidates(undefined, { HOME: '/h' }, '/w')).toEqual(['/w/routeplane.yaml', '/h/.config/routeplane/routeplane.yaml']);

    const dir = mkdtempSync(join(tmpdir(), 'rp-cfg-'));
    mkdirSync(join(dir, 'xdg', 'routeplane'), { recursive: true });
    writeFileSync(join(dir, 'xdg', 'routeplane', 'routeplane.yaml'), minimal);
    const found = loadConfig(undefined, { ...env, XDG_CONFIG_HOME: join(dir, 'xdg') }, dir);
    expect(found.ok && found.file).toBe(join(dir, 'xdg', 'routeplane', 'routeplane.yaml'));
    const missing = loadConfig('nope.yaml', env, dir);
    expect(missing.ok).toBe(false);
    expect(!missing.ok && formatIssue(missing.issues[0]!)).toBe(
      `${join(dir, 'nope.yaml')}: file not found (\`routeplane config init --path ${join(dir, 'nope.yaml')}\` writes one)`,
    );
  });
});
