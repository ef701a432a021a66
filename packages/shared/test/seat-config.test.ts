import { describe, expect, it } from 'vitest';
import { formatIssue, formatWarning, parseConfig, seatAuth } from '../src/index.js';

const env = { KEY_A: 'a', RP_TOKEN: 'token', REFERER: 'https://me.example' };

function report(seats: string, extra = '', e: Record<string, string> = env): { errors: string[]; warnings: string[] } {
  const text = `${extra}\nseats:\n${seats}\nroutes: [{ model: r, chain: [{ seat: a, model: m }] }]\ninfluence: { enabled: true }\n`;
  const result = parseConfig(text, 'rp.yaml', e);
  return { errors: result.ok ? [] : result.issues.map(formatIssue), warnings: result.warnings.map(formatWarning) };
}

describe('seats of every kind in the config', () => {
  it('auth defaults by provider: x-api-key for anthropic, bearer for openai', () => {
    expect(seatAuth({ provider: 'anthropic' })).toBe('x-api-key');
    expect(seatAuth({ provider: 'openai' })).toBe('bearer');
    expect(seatAuth({ provider: 'openai', auth: 'none' })).toBe('none');
  });

  it('accepts each kind with what it needs', () => {
    const result = parseConfig(
      `
seats:
  - { id: a, provider: anthropic, base_url: "https://api.anthropic.com", auth: passthrough }
  - { id: b, provider: anthropic, base_url: "https://openrouter.ai/api", auth: bearer, api_key_env: KEY_A, headers: { X-Title: routeplane, HTTP-Referer: { env: REFERER } } }
  - { id: c, provider: openai, base_url: "http://127.0.0.1:11434/v1", auth: none }
  - { id: d, provider: openai, base_url: "https://chatgpt.com/backend-api/codex", auth: passthrough, api_path: "", extra_usage: avoid }
routes: [{ model: r, balance: drain, chain: [{ seat: a, model: m }, { seat: b, model: m }] }, { model: g, chain: [{ seat: c, model: m }, { seat: d, model: m }] }]
`,
      'rp.yaml',
      env,
    );
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
    if (!result.ok) return;
    expect(result.config.seats.map((s) => [s.id, seatAuth(s), s.api_path, s.extra_usage])).toEqual([
      ['a', 'passthrough', '/v1', 'allow'],
      ['b', 'bearer', '/v1', 'allow'],
      ['c', 'none', '/v1', 'allow'],
      ['d', 'passthrough', '', 'avoid'],
    ]);
    expect(result.config.seats[1]!.headers).toEqual({ 'X-Title': 'routeplane', 'HTTP-Referer': { env: 'REFERER' } });
    expect(result.config.routes[0]!.balance).toBe('drain');
  });

  it('api_key_env: required for a key, refused for passthrough and none', () => {
    expect(
      report(`  - { id: a, provider: openai, base_url: "https://x", auth: bearer }
  - { id: b, provider: anthropic, base_url: "https://x" }
  - { id: c, provider: anthropic, base_url: "https://x", auth: passthrough, api_key_env: KEY_A }
  - { id: d, provider: openai, base_url: "https://x", auth: none, api_key_env: KEY_A }`).errors,
    ).toEqual([
      "rp.yaml: seats[0]: api_key_env is required: auth bearer sends the seat's key from that variable (line 3)",
      "rp.yaml: seats[1]: api_key_env is required: auth x-api-key sends the seat's key from that variable (line 4)",
      "rp.yaml: seats[2].api_key_env: a passthrough seat uses the agent's own credentials; remove api_key_env (line 5)",
      'rp.yaml: seats[3].api_key_env: a seat with auth none sends no credentials; remove api_key_env (line 6)',
    ]);
  });

  it('an unknown auth, a bad api_path, an unset header variable: each one line naming the key', () => {
    expect(
      report(`  - { id: a, provider: openai, base_url: "https://x", auth: oauth }
  - { id: b, provider: openai, base_url: "https://x", auth: none, api_path: "v1" }
  - { id: c, provider: openai, base_url: "https://x", auth: none, api_path: "/v1/" }
  - { id: d, provider: openai, base_url: "https://x", auth: none, headers: { X-Ref: { env: NOT_SET } } }
  - { id: e, provider: openai, base_url: "https://x", auth: none, extra_usage: maybe }`).errors,
    ).toEqual([
      'rp.yaml: seats[0].auth: expected one of "x-api-key", "bearer", "passthrough", "none", got "oauth" (line 3)',
      'rp.yaml: seats[1].api_path: expected "" or a path that starts with "/" and does not end with "/" (line 4)',
      'rp.yaml: seats[2].api_path: expected "" or a path that starts with "/" and does not end with "/" (line 5)',
      'rp.yaml: seats[3].headers.X-Ref.env: environment variable NOT_SET is not set (line 6)',
      'rp.yaml: seats[4].extra_usage: expected "allow" or "avoid", got "maybe" (line 7)',
    ]);
  });

  it('warns once when agents need a token and a seat passes their login through', () => {
    const seats = `  - { id: a, provider: anthropic, base_url: "https://x", auth: passthrough }
  - { id: b, provider: openai, base_url: "https://x", auth: passthrough }`;
    const login = "agents must send the daemon's token as x-routeplane-token so their own login can pass through";
    expect(report(seats, 'server: { auth_token_env: RP_TOKEN }').warnings.filter((w) => w.includes('x-routeplane-token'))).toEqual([
      `rp.yaml: warning: seats[0].auth: ${login} (line 3)`,
    ]);
    expect(report(seats).warnings.filter((w) => w.includes('x-routeplane-token'))).toEqual([]);
  });
});
