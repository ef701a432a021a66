import { startFakeUpstream, respond, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';

/**
 * A real daemon in front of three real upstreams, arranged so two requests
 * open one breaker of each scope:
 *   - seat `max-a` answers 402            → seat_credit on max-a
 *   - seat `team` fails model `haiku-x`    → model breaker team/haiku-x (trip_threshold 1)
 *   - seat `rl` answers 429, Retry-After   → seat_rate_limit on rl
 * Cooldowns are long so nothing recovers while a test looks.
 */
export interface TrippedDaemon {
  t: TestDaemon;
  upstreams: FakeUpstream[];
  close(): Promise<void>;
}

export async function startDaemonWithUpstreams(influenceEnabled: boolean): Promise<TrippedDaemon> {
  const credit = await startFakeUpstream(respond.status(402));
  const team = await startFakeUpstream((req, res) =>
    req.json?.model === 'haiku-x' ? respond.status(500)(req, res) : respond.anthropicMessage()(req, res),
  );
  const limited = await startFakeUpstream(respond.rateLimited('600'));
  const upstreams = [credit, team, limited];
  const t = await startTestDaemon({
    seats: [
      { id: 'max-a', provider: 'anthropic', upstream: credit },
      { id: 'team', provider: 'anthropic', upstream: team },
      { id: 'rl', provider: 'anthropic', upstream: limited },
    ],
    routes: [
      {
        model: 'sonnet',
        chain: [
          { seat: 'max-a', model: 'sonnet-x' },
          { seat: 'team', model: 'sonnet-x' },
        ],
      },
      {
        model: 'haiku',
        chain: [
          { seat: 'team', model: 'haiku-x' },
          { seat: 'rl', model: 'haiku-x' },
        ],
      },
    ],
    influence: { enabled: influenceEnabled, cooldown_secs: 600, max_cooldown_secs: 900, trip_threshold: 1, window_secs: 300 },
  });
  return {
    t,
    upstreams,
    async close() {
      await t.close();
      await Promise.all(upstreams.map((u) => u.close()));
    },
  };
}

const message = (model: string) => ({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

/** Sends the two requests that open the three breakers and waits for their decisions. */
export async function tripAll(t: TestDaemon): Promise<void> {
  const sonnet = await t.post('/v1/messages', message('sonnet'));
  await sonnet.arrayBuffer();
  const haiku = await t.post('/v1/messages', message('haiku'));
  await haiku.arrayBuffer();
  await t.events.nextDecision();
  await t.events.nextDecision();
}

export { message };
