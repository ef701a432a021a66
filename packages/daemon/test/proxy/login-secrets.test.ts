import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/proxy/error-body.js';
import { keepErrorResponse } from '../../src/proxy/failure-answers.js';
import { relayedResponseHeaders } from '../../src/proxy/headers.js';
import { type RequestSecrets, withLogin } from '../../src/proxy/login-secrets.js';

const daemon: RequestSecrets = { strings: ['sk-seat-key-123456'], needles: [Buffer.from('sk-seat-key-123456')] };
const LOGIN = 'sk-ant-oat01-Zq8x-the-agents-own-login';

describe("the agent's login, once it goes to a login seat, is a secret of that request", () => {
  it('adds the whole header, the token after its scheme, x-api-key and chatgpt-account-id to the daemon secrets', () => {
    const secrets = withLogin(daemon, {
      authorization: `Bearer ${LOGIN}`,
      'x-api-key': 'sk-ant-api03-agent-key',
      'chatgpt-account-id': 'acct-7f1c-4d2e',
      'user-agent': 'claude-cli/2.1.197',
    });
    expect(new Set(secrets.strings)).toEqual(
      new Set([`Bearer ${LOGIN}`, LOGIN, 'sk-ant-api03-agent-key', 'acct-7f1c-4d2e', 'sk-seat-key-123456']),
    );
    expect(secrets.needles.map(String)).toEqual(secrets.strings);
  });

  it('a request with no login, or a token too short to be one, adds nothing', () => {
    expect(withLogin(daemon, { 'user-agent': 'x' })).toBe(daemon);
    expect(withLogin(daemon, { authorization: 'Bearer unused' })).toEqual({
      strings: ['Bearer unused', 'sk-seat-key-123456'],
      needles: [Buffer.from('Bearer unused'), Buffer.from('sk-seat-key-123456')],
    });
  });

  it('an error body that echoes the login is redacted before it is relayed; so is a header that carries it', () => {
    const secrets = withLogin(daemon, { authorization: `Bearer ${LOGIN}` });
    const body = Buffer.from(JSON.stringify({ error: { message: `invalid bearer token ${LOGIN}`, sent: `Bearer ${LOGIN}` } }));
    expect(redactSecrets(body, secrets.needles).toString()).toBe(
      JSON.stringify({ error: { message: 'invalid bearer token [redacted]', sent: '[redacted]' } }),
    );
    const headers = relayedResponseHeaders({ 'x-echo': `got ${LOGIN}`, 'request-id': 'req_1', 'content-length': '10' }, secrets.strings);
    expect(headers).toEqual({ 'request-id': 'req_1', 'content-length': '10' });
    const kept = keepErrorResponse('anthropic', 401, headers, { kind: 'read', body }, 'login/claude', secrets.needles);
    expect(kept.body.toString()).not.toContain(LOGIN);
    expect(kept.body.toString()).toContain('[redacted]');
  });
});
