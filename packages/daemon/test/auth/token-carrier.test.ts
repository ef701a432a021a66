import { describe, expect, it } from 'vitest';
import { TokenCheck } from '../../src/http/auth.js';

const agent = (id: string) => ({ id, allow: [], deny: [], lane: null });
const check = new TokenCheck([
  { token: 'tok-default-1234', agent: agent('default') },
  { token: 'tok-ci-5678', agent: agent('ci') },
]);

describe('where the daemon token rides', () => {
  it('x-routeplane-token alone is checked when present, and Authorization / x-api-key are left for the seat', () => {
    expect(check.identify({ 'x-routeplane-token': 'tok-ci-5678', authorization: 'Bearer sk-ant-oat01-login' })).toEqual({
      agent: agent('ci'),
      via: ['x-routeplane-token'],
    });
    // a wrong one is refused whatever the other headers hold, the right token among them included
    expect(check.identify({ 'x-routeplane-token': 'nope', authorization: 'Bearer tok-ci-5678', 'x-api-key': 'tok-ci-5678' })).toBeNull();
  });

  it('without it, the token in Authorization or x-api-key, and which of them held it', () => {
    expect(check.identify({ authorization: 'Bearer tok-default-1234', 'x-api-key': 'sk-ant-api03-login' })).toEqual({
      agent: agent('default'),
      via: ['authorization'],
    });
    expect(check.identify({ authorization: 'Bearer sk-ant-oat01-login', 'x-api-key': 'tok-ci-5678' })).toEqual({
      agent: agent('ci'),
      via: ['x-api-key'],
    });
    expect(check.identify({ authorization: 'bearer tok-ci-5678', 'x-api-key': 'tok-ci-5678' })!.via).toEqual([
      'authorization',
      'x-api-key',
    ]);
    expect(check.identify({ authorization: 'Bearer sk-ant-oat01-login' })).toBeNull();
  });
});
