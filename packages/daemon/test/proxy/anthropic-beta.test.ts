import { describe, expect, it } from 'vitest';
import { betaRule, mergeBeta, OAUTH_BETA } from '../../src/proxy/anthropic-beta.js';

describe('anthropic-beta merge', () => {
  it("the spec's example: the agent's values first, then the seat's, each once", () => {
    const rule = betaRule('oauth-2025-04-20,foo-1', false)!;
    expect(mergeBeta('a-1,oauth-2025-04-20', rule)).toBe('a-1,oauth-2025-04-20,foo-1');
  });

  it('values are trimmed, empty ones dropped, repeats said once, repeated headers joined', () => {
    const rule = betaRule(' foo-1 ,, bar-2 ,foo-1', true)!;
    expect(rule.seatValues).toEqual(['foo-1', 'bar-2']);
    expect(mergeBeta([' a-1 , bar-2', 'a-1,c-3 '], rule)).toBe('a-1,bar-2,c-3,foo-1');
    expect(mergeBeta(undefined, rule)).toBe('foo-1,bar-2');
  });

  it("a login seat with no betas of its own leaves the agent's value alone", () => {
    expect(betaRule(undefined, true)).toBeNull();
  });

  it("any other seat takes oauth-2025-04-20 out of the agent's value, and the header when nothing else is left", () => {
    const rule = betaRule(undefined, false)!;
    expect(rule).toEqual({ seatValues: [], dropAgentOauth: true });
    expect(mergeBeta(`claude-code-20250219,${OAUTH_BETA},interleaved-thinking-2025-05-14`, rule)).toBe(
      'claude-code-20250219,interleaved-thinking-2025-05-14',
    );
    expect(mergeBeta(OAUTH_BETA, rule)).toBeUndefined();
    expect(mergeBeta(undefined, rule)).toBeUndefined();
  });

  it("an agent value without the login's beta goes byte for byte, even to a seat that takes it out", () => {
    expect(mergeBeta('a-1 ,  b-2', betaRule(undefined, false)!)).toBe('a-1 ,  b-2');
  });

  it("a key seat that lists oauth-2025-04-20 itself (a setup-token bearer) sends it, and the agent's stays where the agent put it", () => {
    const rule = betaRule(`${OAUTH_BETA},seat-1`, false)!;
    expect(rule.dropAgentOauth).toBe(false);
    expect(mergeBeta(`a-1,${OAUTH_BETA},a-2`, rule)).toBe(`a-1,${OAUTH_BETA},a-2,seat-1`);
    expect(mergeBeta('a-1', rule)).toBe(`a-1,${OAUTH_BETA},seat-1`);
  });
});
