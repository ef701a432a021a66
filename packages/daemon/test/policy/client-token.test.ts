import { describe, expect, it } from 'vitest';
import { clientToken } from '../../src/policy/client-token.js';

describe('client: the product token of the user-agent', () => {
  it.each([
    ['claude-cli/2.1.197 (external, cli)', 'claude-cli/2.1.197'],
    ['codex_exec/0.169.0 (Debian 12; x86_64) xterm-256color', 'codex_exec/0.169.0'],
    ['OpenAI/JS 6.49.0', 'OpenAI/JS 6.49.0'],
    ['Anthropic/JS 1.14.0', 'Anthropic/JS 1.14.0'],
    ['curl/8.5.0', 'curl/8.5.0'],
    ['python-requests', 'python-requests'],
    [`x/${'9'.repeat(100)}`, `x/${'9'.repeat(58)}`],
    ['  ', null],
    [undefined, null],
    ['bad\u0007agent/1 ', 'badagent/1'],
  ])('%j → %j', (ua, token) => {
    expect(clientToken(ua)).toBe(token);
  });
});
