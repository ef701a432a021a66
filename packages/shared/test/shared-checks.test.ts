import { describe, expect, it } from 'vitest';
import { formatIssue, parseConfig, readRedisUrl } from '../src/index.js';

const env = { KEY_A: 'sk-secret-a', RP_REDIS_PASSWORD: 'hunter2-redis-secret' };

function config(influence: string): string {
  return `
seats:
  - { id: a, provider: openai, base_url: http://127.0.0.1:1, api_key_env: KEY_A }
routes:
  - { model: gpt, chain: [{ seat: a, model: m }] }
influence:
  enabled: true
${influence}`;
}

function errors(text: string, e: Record<string, string> = env): string[] {
  const r = parseConfig(text, 'rp.yaml', e);
  return r.ok ? [] : r.issues.map(formatIssue);
}

describe('influence.shared', () => {
  it('a redis URL with a password variable that is set is accepted', () => {
    expect(errors(config('  shared: { redis_url: "redis://127.0.0.1:6380/2", password_env: RP_REDIS_PASSWORD }'))).toEqual([]);
  });

  it('a password variable that is not set is an error naming the key and the variable, never a value', () => {
    const out = errors(config('  shared: { redis_url: "redis://127.0.0.1:6380/2", password_env: RP_MISSING }'));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^rp\.yaml: influence\.shared\.password_env: environment variable RP_MISSING is not set/);
  });

  it('a password written inside redis_url is an error that does not repeat it', () => {
    const out = errors(config('  shared: { redis_url: "redis://user:pa55word-in-url@127.0.0.1:6379/0" }'));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^rp\.yaml: influence\.shared\.redis_url: holds a password/);
    expect(out.join('\n')).not.toContain('pa55word-in-url');
  });

  it('a URL that is not redis:// or rediss:// is an error', () => {
    expect(errors(config('  shared: { redis_url: "http://127.0.0.1:6379" }'))[0]).toMatch(
      /influence\.shared\.redis_url: expected redis:\/\/ or rediss:\/\//,
    );
    expect(errors(config('  shared: { redis_url: "redis://127.0.0.1:6379/zero" }'))[0]).toMatch(/expected a database number/);
    expect(errors(config('  shared: { redis_url: "not a url" }'))[0]).toMatch(/influence\.shared\.redis_url: expected a URL/);
  });

  it('state_file together with shared is an error naming state_file', () => {
    const out = errors(config('  state_file: /tmp/rp-state.json\n  shared: { redis_url: "redis://127.0.0.1:6379/0" }'));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^rp\.yaml: influence\.state_file: cannot be used together with influence\.shared/);
  });

  it('state_file alone stays accepted', () => {
    expect(errors(config('  state_file: /tmp/rp-state.json'))).toEqual([]);
  });
});

describe('readRedisUrl', () => {
  it('reads host, port, database and TLS, with the defaults', () => {
    expect(readRedisUrl('redis://127.0.0.1:6380/3')).toEqual({
      ok: true,
      endpoint: { tls: false, host: '127.0.0.1', port: 6380, db: 3, username: null },
    });
    expect(readRedisUrl('rediss://cache.internal')).toEqual({
      ok: true,
      endpoint: { tls: true, host: 'cache.internal', port: 6379, db: 0, username: null },
    });
    expect(readRedisUrl('redis://team@[::1]:7000/')).toEqual({
      ok: true,
      endpoint: { tls: false, host: '::1', port: 7000, db: 0, username: 'team' },
    });
  });
});
