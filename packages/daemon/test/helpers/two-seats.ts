/**
 * The most common fixture: one route `gpt` (OpenAI family) or `claude`
 * (Anthropic family) over two seats, `a` then `b`, each with its own fake
 * upstream. Seat `a` serves model `model-a`, seat `b` serves `model-b`.
 */
import { respond, startFakeUpstream, type Behaviour, type FakeUpstream } from './fake-upstream.js';
import { startTestDaemon, type TestDaemon, type TestDaemonOptions } from './test-daemon.js';

export interface TwoSeats {
  t: TestDaemon;
  a: FakeUpstream;
  b: FakeUpstream;
  close(): Promise<void>;
}

export async function startTwoSeats(
  opts: {
    provider?: 'openai' | 'anthropic';
    /** base_url for seat a instead of its fake upstream (e.g. a closed port) */
    aBaseUrl?: string;
    behaviourA?: Behaviour;
    behaviourB?: Behaviour;
  } & Omit<TestDaemonOptions, 'seats' | 'routes'> = {},
): Promise<TwoSeats> {
  const provider = opts.provider ?? 'openai';
  const ok = provider === 'openai' ? respond.openaiChat() : respond.anthropicMessage();
  const a = await startFakeUpstream(opts.behaviourA ?? ok);
  const b = await startFakeUpstream(opts.behaviourB ?? ok);
  const { provider: _p, aBaseUrl, behaviourA: _a, behaviourB: _b, ...rest } = opts;
  const route = provider === 'openai' ? 'gpt' : 'claude';
  const t = await startTestDaemon({
    ...rest,
    seats: [
      { id: 'a', provider, upstream: aBaseUrl ?? a },
      { id: 'b', provider, upstream: b },
    ],
    routes: [
      {
        model: route,
        chain: [
          { seat: 'a', model: 'model-a' },
          { seat: 'b', model: 'model-b' },
        ],
      },
    ],
  });
  return {
    t,
    a,
    b,
    async close() {
      await t.close();
      await Promise.all([a.close(), b.close()]);
    },
  };
}

export const CHAT = '/v1/chat/completions';
export const MESSAGES = '/v1/messages';

export function chatBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'gpt', messages: [{ role: 'user', content: 'hi' }], ...extra };
}

export function messagesBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'claude', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...extra };
}
