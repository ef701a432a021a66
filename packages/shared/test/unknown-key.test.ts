import { describe, expect, it } from 'vitest';
import { formatIssue, parseConfig } from '../src/index.js';

const SEAT = '  - { id: a, provider: anthropic, base_url: "https://api.anthropic.com", api_key_env: KEY_A }';

/** The lines `config check` prints for `text`. */
function lines(text: string): string[] {
  const result = parseConfig(text, 'f.yaml', { KEY_A: 'k' });
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to fail`);
  return result.issues.map(formatIssue);
}

describe('an unknown key', () => {
  it('that belongs further down says where, with the indexes written', () => {
    const text = ['seats:', SEAT, 'routes:', '  - model: sonnet', '    cost_per_mtok: 3', '    chain: [{ seat: a, model: x }]'].join('\n');
    expect(lines(text)).toEqual([
      'f.yaml: routes[0].cost_per_mtok: unknown key here (it belongs at routes[0].chain[N].cost_per_mtok) (line 5)',
    ]);
  });

  it('that belongs in another section says where', () => {
    const text = ['enabled: true', 'seats:', SEAT, 'routes:', '  - { model: s, chain: [{ seat: a, model: x }] }'].join('\n');
    expect(lines(text)).toEqual(['f.yaml: enabled: unknown key here (it belongs at influence.enabled) (line 1)']);
  });

  it('that belongs in more than one place names each', () => {
    const text = ['seats:', `${SEAT.slice(0, -2)}, lane: background }`, 'routes:', '  - { model: s, chain: [{ seat: a, model: x }] }'].join(
      '\n',
    );
    expect(lines(text)).toEqual([
      'f.yaml: seats[0].lane: unknown key here (it belongs at server.agents[N].lane or routes[N].lane) (line 2)',
    ]);
  });

  it('a typo of a key of the same mapping still gets its "did you mean"', () => {
    const text = ['seats:', SEAT, 'routes:', '  - { model: s, chain: [{ seat: a, model: x, wieght: 2 }] }'].join('\n');
    expect(lines(text)).toEqual(['f.yaml: routes[0].chain[0].wieght: unknown key (did you mean weight?) (line 4)']);
  });

  it('api_key on a seat points to api_key_env, and never repeats the key', () => {
    const key = 'sk-ant-api03-very-secret-value';
    const text = [
      'seats:',
      `  - { id: a, provider: anthropic, base_url: "https://x", api_key: ${key}, api_key_env: KEY_A }`,
      'routes:',
      '  - { model: s, chain: [{ seat: a, model: x }] }',
    ].join('\n');
    const out = lines(text);
    expect(out).toEqual([
      'f.yaml: seats[0].api_key: unknown key: the config never holds a secret itself; put it in an environment variable and name that variable here as api_key_env: NAME (`serve --env-file FILE` reads variables from a file) (line 2)',
    ]);
    expect(out.join('\n')).not.toContain(key);
  });

  it('auth_token in server points to auth_token_env', () => {
    const text = ['server: { auth_token: hunter2 }', 'seats:', SEAT, 'routes:', '  - { model: s, chain: [{ seat: a, model: x }] }'].join(
      '\n',
    );
    expect(lines(text)[0]).toMatch(
      /^f\.yaml: server\.auth_token: unknown key: the config never holds a secret itself; .* as auth_token_env: NAME/,
    );
  });

  it('with no key of that name anywhere, says only that', () => {
    const text = ['seats:', SEAT, 'routes:', '  - { model: s, colour: blue, chain: [{ seat: a, model: x }] }'].join('\n');
    expect(lines(text)).toEqual(['f.yaml: routes[0].colour: unknown key (line 4)']);
  });
});
