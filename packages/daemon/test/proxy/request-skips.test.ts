import { validateConfig } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { resolveSeats } from '../../src/credentials.js';
import { cannotServe } from '../../src/proxy/cannot-serve.js';
import { requestSkips, type SkipRequest } from '../../src/proxy/request-skips.js';
import { type FamilyChain, prepareRoutes } from '../../src/proxy/route-table.js';

/** One route over a key seat and two logins (Anthropic family). */
function chain(): FamilyChain {
  const env = { KEY: 'sk-key-0123456789' };
  const result = validateConfig(
    {
      seats: [
        { id: 'login', provider: 'anthropic', base_url: 'https://api.anthropic.com', auth: 'passthrough' },
        { id: 'key', provider: 'anthropic', base_url: 'https://api.anthropic.com', api_key_env: 'KEY' },
        { id: 'login2', provider: 'anthropic', base_url: 'https://api.anthropic.com', auth: 'passthrough' },
      ],
      routes: [
        {
          model: 'sonnet',
          chain: [
            { seat: 'login', model: 'claude-sonnet-5' },
            { seat: 'key', model: 'claude-sonnet-5' },
            { seat: 'login2', model: 'claude-sonnet-5' },
            { seat: 'login', model: 'claude-opus-5' },
          ],
        },
      ],
    },
    'test',
    env,
  );
  if (!result.ok) throw new Error(result.issues.map((i) => i.message).join('; '));
  const { seats } = resolveSeats(result.config, env);
  return prepareRoutes(seats, new Map(result.config.routes.map((r) => [r.model, r]))).get('sonnet')!.anthropic;
}

const request = (headers: Record<string, string>): SkipRequest => ({ family: 'anthropic', headers, body: Buffer.from('{}') });

describe("a request's own skips", () => {
  const sonnet = chain();

  it('a request without credentials skips every login target, and only those', () => {
    const skips = requestSkips(request({ 'user-agent': 'claude-cli' }), sonnet.targets);
    expect(skips.map((s) => [s.target.label, s.reason, s.detail])).toEqual([
      ['login/claude-sonnet-5', 'no_credentials', null],
      ['login2/claude-sonnet-5', 'no_credentials', null],
      ['login/claude-opus-5', 'no_credentials', null],
    ]);
  });

  it('a login in authorization or x-api-key skips nothing; an empty one is none', () => {
    expect(requestSkips(request({ authorization: 'Bearer sk-ant-oat01-x' }), sonnet.targets)).toEqual([]);
    expect(requestSkips(request({ 'x-api-key': 'sk-ant-api03-x' }), sonnet.targets)).toEqual([]);
    expect(requestSkips(request({ 'x-api-key': '' }), sonnet.targets)).toHaveLength(3);
  });

  it('a chain with no login target skips nothing, whatever the request carries', () => {
    const keyOnly = sonnet.targets.filter((t) => !t.login);
    expect(requestSkips(request({}), keyOnly)).toEqual([]);
  });
});

describe('nothing can serve', () => {
  const sonnet = chain();
  const skips = requestSkips(request({}), sonnet.targets);

  it("401 naming the login seat, in the spec's words", () => {
    expect(cannotServe('sonnet', skips.slice(0, 1))).toEqual({
      kind: 'unauthorized',
      message: `route "sonnet": seat "login" uses the agent's own login, and the request carried no credentials`,
    });
  });

  it('several skipped targets are each named once, per seat', () => {
    expect(cannotServe('sonnet', skips).message).toBe(
      `route "sonnet": seat "login" uses the agent's own login, and the request carried no credentials; ` +
        `seat "login2" uses the agent's own login, and the request carried no credentials`,
    );
  });
});
