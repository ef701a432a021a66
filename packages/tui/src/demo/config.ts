import { randomBytes } from 'node:crypto';
import { validateConfig, type ConfigResult, type Env } from '@routeplane/shared';
import type { Scenario } from './scenario/schema.js';
import { splitTarget } from './scenario/load.js';

export interface DemoPaths {
  socket: string;
  decisionLog: string;
}

/**
 * Per seat: the environment variable its fake key sits in, and the key; per
 * family, the fake login the agents are logged in with, which a passthrough
 * seat accepts (the agents share one account per family, as agents sharing
 * one login seat must). Keys and logins are never printed.
 */
export interface DemoKeys {
  envNameOf: ReadonlyMap<string, string>;
  /** what each seat's simulated provider accepts: its key, or the agents' login */
  keyOf: ReadonlyMap<string, string>;
  /** the agents' login per family, when a seat of that family passes it through */
  loginOf: ReadonlyMap<'anthropic' | 'openai', string>;
  /** only the demo's variables: the daemon sees nothing of the user's environment */
  env: Env;
}

export function makeDemoKeys(scenario: Scenario): DemoKeys {
  const envNameOf = new Map<string, string>();
  const keyOf = new Map<string, string>();
  const loginOf = new Map<'anthropic' | 'openai', string>();
  const env: Env = {};
  scenario.seats.forEach((seat, i) => {
    if (seat.auth === 'passthrough') {
      let login = loginOf.get(seat.provider);
      if (login === undefined) {
        // what a logged-in Claude Code or Codex sends, made up
        login =
          (seat.provider === 'anthropic' ? 'sk-ant-oat01-demo-' : 'eyJhbGciOiJub25lIn0.demo-login.') +
          randomBytes(18).toString('base64url');
        loginOf.set(seat.provider, login);
      }
      keyOf.set(seat.id, login);
      return;
    }
    const name = `ROUTEPLANE_DEMO_SEAT_${i + 1}_KEY`;
    const prefix = seat.provider === 'anthropic' ? 'sk-ant-demo-' : 'sk-demo-';
    const key = prefix + randomBytes(18).toString('base64url');
    envNameOf.set(seat.id, name);
    keyOf.set(seat.id, key);
    env[name] = key;
  });
  return { envNameOf, keyOf, loginOf, env };
}

/**
 * The routeplane.yaml the demo would have written, as a document validated by
 * the real schema: the daemon runs exactly as `serve` would with it. Every
 * duration the scenario states is divided by `speed`.
 */
export function buildDemoConfig(
  scenario: Scenario,
  scenarioFile: string,
  baseUrlOf: ReadonlyMap<string, string>,
  keys: DemoKeys,
  paths: DemoPaths,
  speed: number,
): ConfigResult {
  const { influence } = scenario;
  // The daemon refuses a maximum below 1 s (the rate-limit floor); a very fast demo keeps it there.
  const maxCooldown = Math.max(1, influence.max_cooldown_secs / speed);
  const raw = {
    server: { listen: '127.0.0.1:0' },
    control: { socket: paths.socket },
    decision_log: { path: paths.decisionLog },
    seats: scenario.seats.map((seat) => ({
      id: seat.id,
      provider: seat.provider,
      base_url: baseUrlOf.get(seat.id),
      ...(seat.auth === 'passthrough' ? { auth: 'passthrough' } : { api_key_env: keys.envNameOf.get(seat.id) }),
    })),
    routes: scenario.routes.map((route) => ({
      model: route.model,
      chain: route.chain.map((ref) => {
        const [seat, model] = splitTarget(ref);
        return { seat, model };
      }),
    })),
    influence: {
      enabled: influence.enabled,
      cooldown_secs: Math.min(influence.cooldown_secs / speed, maxCooldown),
      max_cooldown_secs: maxCooldown,
      trip_threshold: influence.trip_threshold,
      window_secs: influence.window_secs / speed,
    },
  };
  return validateConfig(raw, scenarioFile, keys.env);
}
