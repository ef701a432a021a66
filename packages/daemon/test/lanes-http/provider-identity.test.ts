import type { BreakerEvent, DaemonEvent } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, MESSAGES, message } from '../policy-http/support.js';

/**
 * Which seats share a provider layer: the same `provider`
 * and the same `base_url`. A gateway that serves both families at one URL
 * must not merge an anthropic seat's and an openai seat's failures of a
 * model name they share; two seats of one provider there still do, under
 * the plain URL the v2 key format names.
 */

const providerTripped = (e: DaemonEvent): e is BreakerEvent =>
  e.type === 'breaker' && e.action === 'tripped' && e.scope === 'provider_model';

let gateway: FakeUpstream | null = null;
let t: TestDaemon | null = null;

afterEach(async () => {
  await t?.close();
  await gateway?.close();
  t = gateway = null;
});

const INFLUENCE = { enabled: true, trip_threshold: 3, cooldown_secs: 60, max_cooldown_secs: 120 } as const;

describe('the provider layer of seats at one base URL', () => {
  it('an anthropic seat and an openai seat there never share it: their model errors trip no provider breaker', async () => {
    gateway = await startFakeUpstream(respond.status(500));
    t = await startTestDaemon({
      seats: [
        { id: 'ant', provider: 'anthropic', upstream: gateway },
        { id: 'oai', provider: 'openai', upstream: `${gateway.url}/` },
      ],
      routes: [
        {
          model: 'm',
          chain: [
            { seat: 'ant', model: 'model-x' },
            { seat: 'oai', model: 'model-x' },
          ],
        },
      ],
      influence: INFLUENCE,
    });
    // ant, oai, ant: three model errors of model-x at one URL from two seats — a shared layer would trip here
    expect((await exchange(t, MESSAGES, message('m'))).decision.attempts.map((a) => a.seat)).toEqual(['ant']);
    expect((await exchange(t, CHAT, chat('m'))).decision.attempts.map((a) => a.seat)).toEqual(['oai']);
    await exchange(t, MESSAGES, message('m'));
    // ant's own third failure trips its target: every earlier recording has been made by then
    await exchange(t, MESSAGES, message('m'));
    await t.events.take(isBreaker('tripped', 'ant'));
    expect(t.events.all(providerTripped)).toEqual([]);
    expect(t.events.all(isBreaker('tripped')).map((e) => [e.seat, e.scope])).toEqual([['ant', 'model']]);
  });

  it('two openai seats there share it under the plain URL, even beside an anthropic seat elsewhere', async () => {
    gateway = await startFakeUpstream(respond.status(500));
    t = await startTestDaemon({
      seats: [
        { id: 'o1', provider: 'openai', upstream: gateway },
        { id: 'o2', provider: 'openai', upstream: `${gateway.url}/` },
        { id: 'ant', provider: 'anthropic', upstream: 'http://127.0.0.1:9/' },
      ],
      routes: [
        {
          model: 'm',
          chain: [
            { seat: 'o1', model: 'model-x' },
            { seat: 'o2', model: 'model-x' },
            { seat: 'ant', model: 'model-x' },
          ],
        },
      ],
      influence: INFLUENCE,
    });
    await exchange(t, CHAT, chat('m'));
    await exchange(t, CHAT, chat('m'));
    const tripped = await t.events.take(providerTripped);
    expect(tripped.breaker).toMatchObject({
      key: `errors:provider:${gateway.url}/model-x`,
      scope: 'provider',
      upstream: gateway.url,
      model: 'model-x',
    });
  });
});
