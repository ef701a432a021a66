import { validateConfig } from '@routeplane/shared';
import { buildContext } from '../../src/build-context.js';
import { systemClock } from '../../src/breaker/types.js';
import type { DaemonContext } from '../../src/context.js';

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
            { seat: 'max-a', model: 'claude-sonnet-5' },
            { seat: 'team', model: 'claude-sonnet-5' },
          ],
        },
      ],
      influence: { enabled: influenceEnabled },
    },
    'test.yaml',
    env,
  );
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const context = buildContext(loaded.config, { env, clock: systemClock, configPath: null });
  context.httpUrl = 'http://127.0.0.1:9';
  return context;
}
