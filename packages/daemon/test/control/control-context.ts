import { validateConfig, type Config } from '@routeplane/shared';
import { createInfluence } from '../../src/breaker/influence.js';
import { systemClock } from '../../src/breaker/types.js';
import type { DaemonContext, ResolvedSeat } from '../../src/context.js';
import { EventBus } from '../../src/events/bus.js';

/**
 * A daemon context made of the real parts (config validation, event bus,
 * influence engine) without the HTTP side, for tests of the control server
 * alone: socket file handling does not need a proxy.
 */
export function controlOnlyContext(influenceEnabled = true): DaemonContext {
  const env = { KEY_A: 'sk-test-a', KEY_B: 'sk-test-b' };
  const loaded = validateConfig(
    {
      seats: [
        { id: 'max-a', provider: 'anthropic', base_url: 'http://127.0.0.1:9', api_key_env: 'KEY_A' },
        { id: 'team', provider: 'anthropic', base_url: 'http://127.0.0.1:9', api_key_env: 'KEY_B' },
      ],
      routes: [
        {
          model: 'sonnet',
          chain: [
            { seat: 'max-a', model: 'claude-sonnet-4-5' },
            { seat: 'team', model: 'claude-sonnet-4-5' },
          ],
        },
      ],
      influence: { enabled: influenceEnabled },
    },
    'test.yaml',
    env,
  );
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const config: Config = loaded.config;
  const bus = new EventBus();
  const influence = createInfluence(config.influence, config.seats, config.routes, systemClock, (change) => bus.emit(change));
  const seats = new Map<string, ResolvedSeat>(config.seats.map((s) => [s.id, { ...s, apiKey: env[s.api_key_env as keyof typeof env] }]));
  return {
    config,
    seats,
    routes: new Map(config.routes.map((r) => [r.model, r])),
    authToken: null,
    bus,
    influence,
    counters: { requests: 0, failovers: 0, fail_open: 0 },
    received: { bodyBytes: 0 },
    clock: systemClock,
    startedAt: Date.now(),
    httpUrl: 'http://127.0.0.1:9',
    secrets: Object.values(env),
  };
}
