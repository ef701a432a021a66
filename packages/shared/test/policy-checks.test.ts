import { describe, expect, it } from 'vitest';
import { formatIssue, parseConfig } from '../src/index.js';

const env = {
  KEY_A: 'sk-secret-a',
  KEY_B: 'sk-secret-b',
  RP_TOKEN_CI: 'tok-ci-secret',
  RP_TOKEN_ME: 'tok-me-secret',
  RP_TOKEN: 'tok-default-secret',
};

/** Two seats and two routes; `extra` is appended at the top level, `route` inside the first route, `seat` and `target` inside the first seat and chain entry. */
function config({
  route = '',
  target = '',
  extra = '',
  seat = '',
}: {
  route?: string;
  target?: string;
  extra?: string;
  seat?: string;
} = {}): string {
  return `
seats:
  - { id: max-1, provider: anthropic, base_url: https://api.anthropic.com, api_key_env: KEY_A${seat} }
  - { id: max-2, provider: anthropic, base_url: https://api.anthropic.com, api_key_env: KEY_B }
routes:
  - model: sonnet
${route}    chain:
      - { seat: max-1, model: claude-sonnet-5${target} }
      - { seat: max-2, model: claude-sonnet-5 }
  - model: opus
    chain:
      - { seat: max-1, model: claude-opus-4-1 }
${extra}`;
}

function errors(text: string, e: Record<string, string> = env): string[] {
  const r = parseConfig(text, 'rp.yaml', e);
  if (r.ok) return [];
  return r.issues.map(formatIssue);
}

describe('the policy keys', () => {
  it('a config with every policy key in range is accepted', () => {
    const text = config({
      route:
        '    balance: spread\n    lane: background\n    retry: { max_attempts: 5, retry_on: [429, 5xx, timeout], backoff_ms: 10000, jitter: false }\n',
      target: ', weight: 0, cost_per_mtok: 0',
      extra: `aliases: { fast: sonnet, "claude-*": fast }
server:
  auth_token_env: RP_TOKEN
  agents:
    - { id: ci-bots, token_env: RP_TOKEN_CI, allow: [sonnet], lane: background }
    - { id: laptop, token_env: RP_TOKEN_ME, deny: [opus] }
`,
    });
    expect(errors(text)).toEqual([]);
  });

  it.each([
    ['max_attempts: 0', '    retry: { max_attempts: 0 }\n', 'routes[0].retry.max_attempts', /must be at least 1/],
    ['max_attempts: 6', '    retry: { max_attempts: 6 }\n', 'routes[0].retry.max_attempts', /must be at most 5/],
    ['max_attempts: 2.5', '    retry: { max_attempts: 2.5 }\n', 'routes[0].retry.max_attempts', /whole number/i],
    ['backoff_ms: 49', '    retry: { backoff_ms: 49 }\n', 'routes[0].retry.backoff_ms', /must be at least 50/],
    ['backoff_ms: 10001', '    retry: { backoff_ms: 10001 }\n', 'routes[0].retry.backoff_ms', /must be at most 10000/],
    [
      'retry_on: [404]',
      '    retry: { retry_on: [404] }\n',
      'routes[0].retry.retry_on[0]',
      /expected one of "429", "5xx", "timeout", got "404"/,
    ],
    ['retry: { retries: 3 }', '    retry: { retries: 3 }\n', 'routes[0].retry.retries', /unknown key/],
    ['balance: random', '    balance: random\n', 'routes[0].balance', /spread/],
  ])('%s: one error naming the path and the limit', (_what, route, path, limit) => {
    const out = errors(config({ route }));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^rp\\.yaml: ${path.replace(/[[\].]/g, '\\$&')}: `));
    expect(out[0]).toMatch(limit);
  });

  it.each([
    ['weight: -1', ', weight: -1', 'routes[0].chain[0].weight'],
    ['cost_per_mtok: -0.5', ', cost_per_mtok: -0.5', 'routes[0].chain[0].cost_per_mtok'],
  ])('%s: one error naming the path and the limit', (_what, target, path) => {
    const out = errors(config({ target }));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^rp\\.yaml: ${path.replace(/[[\].]/g, '\\$&')}: must be at least 0`));
  });

  it.each([
    ['backoff_ms: 50.5', '    retry: { backoff_ms: 50.5 }\n', 'routes[0].retry.backoff_ms', /expected a whole number, got 50\.5/],
    ['jitter: "yes"', '    retry: { jitter: "yes" }\n', 'routes[0].retry.jitter', /expected true or false, got "yes"/],
    ['lane: urgent', '    lane: urgent\n', 'routes[0].lane', /expected "foreground" or "background", got "urgent"/],
  ])('%s: one error naming the path and what is expected', (_what, route, path, expected) => {
    const out = errors(config({ route }));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^rp\\.yaml: ${path.replace(/[[\].]/g, '\\$&')}: `));
    expect(out[0]).toMatch(expected);
  });

  it.each([
    ['weight: heavy', { target: ', weight: heavy' }, 'routes[0].chain[0].weight', /expected a number, got "heavy"/],
    ['reserve_pct: -1', { seat: ', reserve_pct: -1' }, 'seats[0].reserve_pct', /must be at least 0/],
    ['reserve_pct: 100', { seat: ', reserve_pct: 100' }, 'seats[0].reserve_pct', /must be at most 99/],
    ['reserve_pct: "20%"', { seat: ', reserve_pct: "20%"' }, 'seats[0].reserve_pct', /expected a number, got "20%"/],
  ])('%s: one error naming the path and the limit', (_what, parts, path, limit) => {
    const out = errors(config(parts));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^rp\\.yaml: ${path.replace(/[[\].]/g, '\\$&')}: `));
    expect(out[0]).toMatch(limit);
  });

  it('reserve_pct 0 and 99 are the ends of its range', () => {
    expect(errors(config({ seat: ', reserve_pct: 0' }))).toEqual([]);
    expect(errors(config({ seat: ', reserve_pct: 99' }))).toEqual([]);
  });

  it('max_attempts above 1 with an empty retry_on is an error: a retry that reads as configured but cannot happen', () => {
    expect(errors(config({ route: '    retry: { max_attempts: 3, retry_on: [] }\n' }))).toEqual([
      'rp.yaml: routes[0].retry.retry_on: is empty while max_attempts is 3: name at least one of 429, 5xx, timeout, or set max_attempts to 1 (line 7)',
    ]);
    expect(errors(config({ route: '    retry: { max_attempts: 1, retry_on: [] }\n' }))).toEqual([]);
  });

  it('an alias named like a route is an error; an alias of an alias is not', () => {
    expect(errors(config({ extra: 'aliases: { fast: sonnet, opus: sonnet, quick: fast }\n' }))).toEqual([
      'rp.yaml: aliases.opus: "opus" is a route name: an exact route always wins, so this alias would never apply (line 13)',
    ]);
  });
});

describe('agents', () => {
  const agents = (lines: string, server = ''): string =>
    config({ extra: `aliases: { fast: sonnet }\nserver:\n${server}  agents:\n${lines}` });

  it('ids are unique, and "default" is taken when auth_token_env is set', () => {
    expect(
      errors(
        agents(
          '    - { id: ci, token_env: RP_TOKEN_CI }\n    - { id: ci, token_env: RP_TOKEN_ME }\n    - { id: default, token_env: RP_TOKEN_X }\n',
          '  auth_token_env: RP_TOKEN\n',
        ),
        { ...env, RP_TOKEN_X: 'tok-x-secret' },
      ),
    ).toEqual([
      expect.stringMatching(/^rp\.yaml: server\.agents\[1\]\.id: duplicate agent id "ci" \(also server\.agents\[0\]\)/),
      expect.stringMatching(/^rp\.yaml: server\.agents\[2\]\.id: duplicate agent id "default" \(also server\.auth_token_env\)/),
    ]);
  });

  it('allow and deny name routes: an unknown name is an error, and an alias says why it is not a route', () => {
    expect(errors(agents('    - { id: ci, token_env: RP_TOKEN_CI, allow: [sonnet, sonet], deny: [fast] }\n'))).toEqual([
      expect.stringMatching(/^rp\.yaml: server\.agents\[0\]\.allow\[1\]: unknown route "sonet" \(routes: sonnet, opus\)/),
      expect.stringMatching(
        /^rp\.yaml: server\.agents\[0\]\.deny\[0\]: unknown route "fast" \("fast" is an alias; deny names routes\) \(routes: sonnet, opus\)/,
      ),
    ]);
  });

  it('two agents may not share a token variable, nor share it with auth_token_env', () => {
    expect(
      errors(
        agents(
          '    - { id: ci, token_env: RP_TOKEN_CI }\n    - { id: me, token_env: RP_TOKEN_CI }\n    - { id: x, token_env: RP_TOKEN }\n',
          '  auth_token_env: RP_TOKEN\n',
        ),
      ),
    ).toEqual([
      expect.stringMatching(
        /^rp\.yaml: server\.agents\[1\]\.token_env: RP_TOKEN_CI is already the token of server\.agents\[0\]: tokens must differ/,
      ),
      expect.stringMatching(
        /^rp\.yaml: server\.agents\[2\]\.token_env: RP_TOKEN is already the token of server\.auth_token_env: tokens must differ/,
      ),
    ]);
  });

  it("an agent's lane is foreground or background", () => {
    const out = errors(agents('    - { id: ci, token_env: RP_TOKEN_CI, lane: urgent }\n'));
    expect(out).toEqual([expect.stringMatching(/^rp\.yaml: server\.agents\[0\]\.lane: expected "foreground" or "background"/)]);
  });

  it('agents stand in for auth_token_env on a listen address that is not loopback', () => {
    expect(errors(agents('    - { id: ci, token_env: RP_TOKEN_CI }\n', '  listen: 0.0.0.0:4141\n'))).toEqual([]);
    expect(errors(config({ extra: 'server:\n  listen: 0.0.0.0:4141\n' }))).toEqual([
      expect.stringMatching(/^rp\.yaml: server\.auth_token_env: required when listen \(0\.0\.0\.0:4141\) is not a loopback address/),
    ]);
  });

  it('every token variable must be set, naming the variable', () => {
    const { RP_TOKEN_ME: _unset, ...without } = env;
    expect(errors(agents('    - { id: ci, token_env: RP_TOKEN_CI }\n    - { id: me, token_env: RP_TOKEN_ME }\n'), without)).toEqual([
      expect.stringMatching(/^rp\.yaml: server\.agents\[1\]\.token_env: environment variable RP_TOKEN_ME is not set/),
    ]);
    expect(errors(agents('    - { id: ci, token_env: RP_TOKEN_CI }\n'), { ...env, RP_TOKEN_CI: '' })).toEqual([
      expect.stringMatching(/environment variable RP_TOKEN_CI is not set/),
    ]);
  });

  it('tokens must differ, and the error never prints one', () => {
    const same = { ...env, RP_TOKEN_ME: 'tok-ci-secret', RP_TOKEN: 'tok-ci-secret' };
    const out = errors(
      agents('    - { id: ci, token_env: RP_TOKEN_CI }\n    - { id: me, token_env: RP_TOKEN_ME }\n', '  auth_token_env: RP_TOKEN\n'),
      same,
    );
    expect(out).toEqual([
      expect.stringMatching(/^rp\.yaml: server\.agents\[0\]\.token_env: RP_TOKEN_CI holds the same token as RP_TOKEN: tokens must differ/),
      expect.stringMatching(/^rp\.yaml: server\.agents\[1\]\.token_env: RP_TOKEN_ME holds the same token as RP_TOKEN: tokens must differ/),
    ]);
    expect(out.join('\n')).not.toContain('tok-');
  });
});
