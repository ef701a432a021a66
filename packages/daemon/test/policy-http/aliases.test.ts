import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, MESSAGES, message } from './support.js';

/** Aliases and `*` patterns over real HTTP. */

let anthropic: FakeUpstream;
let openai: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  anthropic = await startFakeUpstream(respond.anthropicMessage());
  openai = await startFakeUpstream(respond.openaiChat());
  t = await startTestDaemon({
    seats: [
      { id: 'max', provider: 'anthropic', upstream: anthropic },
      { id: 'oa', provider: 'openai', upstream: openai },
    ],
    routes: [
      { model: 'sonnet', chain: [{ seat: 'max', model: 'claude-sonnet-5' }] },
      { model: 'haiku', chain: [{ seat: 'max', model: 'claude-haiku-4-5' }] },
      { model: 'claude-opus-4-1', chain: [{ seat: 'max', model: 'claude-opus-4-1' }] },
      { model: 'gpt', chain: [{ seat: 'oa', model: 'gpt-5' }] },
    ],
    aliases: {
      fast: 'sonnet',
      cheap: 'fast',
      ping: 'pong',
      pong: 'ping',
      'claude-*': 'sonnet',
      'claude-haiku-*': 'haiku',
      '*-mini': 'cheap',
      'gpt-*': 'gpt',
      'via-pattern': 'claude-haiku-anything',
    },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([anthropic?.close(), openai?.close()]);
});

describe('aliases', () => {
  it.each([
    ['an alias', 'fast', 'sonnet', 'claude-sonnet-5'],
    ['a chain of aliases', 'cheap', 'sonnet', 'claude-sonnet-5'],
    ["Claude Code's dated haiku id through the most specific pattern", 'claude-haiku-4-5-20251001', 'haiku', 'claude-haiku-4-5'],
    ['a broader pattern', 'claude-sonnet-4-5-20250929', 'sonnet', 'claude-sonnet-5'],
    ['an exact route name over a pattern it matches', 'claude-opus-4-1', 'claude-opus-4-1', 'claude-opus-4-1'],
    ['an alias whose target only a pattern reaches', 'via-pattern', 'haiku', 'claude-haiku-4-5'],
  ])('%s: %s reaches route %s', async (_what, requested, route, upstreamModel) => {
    const x = await exchange(t, MESSAGES, message(requested));
    expect(x.res.status).toBe(200);
    expect(x.decision.requested).toBe(requested);
    expect(x.decision.route).toBe(route);
    expect(x.decision.served_by).toBe(`max/${upstreamModel}`);
    expect(anthropic.requests.at(-1)?.json.model).toBe(upstreamModel);
    expect(x.res.headers.get('x-routeplane-decision')).toBe(`max/${upstreamModel}(healthy)`);
  });

  it('patterns of equal specificity go in the order written', async () => {
    // "gpt-mini" matches both "*-mini" and "gpt-*" (four literal characters each): "*-mini" was written first
    const x = await exchange(t, MESSAGES, message('gpt-mini'));
    expect(x.decision.route).toBe('sonnet');
    expect(x.decision.requested).toBe('gpt-mini');
    const y = await exchange(t, CHAT, chat('gpt-4o'));
    expect(y.decision.route).toBe('gpt');
  });

  it('a cycle resolves back to the requested name, which is no route: 404 naming routes and aliases', async () => {
    const x = await exchange(t, CHAT, chat('ping'));
    expect(x.res.status).toBe(404);
    expect(x.res.headers.get('x-routeplane-attempts')).toBe('0');
    expect(x.res.headers.get('x-routeplane-decision')).toBeNull();
    expect(x.body.error.message).toContain('"ping"');
    expect(x.body.error.message).toContain('"sonnet"');
    expect(x.body.error.message).toContain('"fast"');
    expect(x.decision.status).toBe(404);
    expect(x.decision.attempts).toEqual([]);
  });

  it('/v1/models lists the routes and the aliases', async () => {
    const res = await fetch(`${t.url}/v1/models`);
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
    for (const name of ['sonnet', 'haiku', 'claude-opus-4-1', 'gpt', 'fast', 'cheap', 'via-pattern']) {
      expect(ids).toContain(name);
    }
  });
});
