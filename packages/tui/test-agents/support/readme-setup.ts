/**
 * The README's config brought up for real: one fake upstream per seat it
 * declares (answering as that seat's provider would), the seats' base URLs
 * pointed at them (their paths kept), a key for every `api_key_env`, and
 * `routeplane serve` on top. Also usable with any other config of the same shape.
 */
import { randomBytes } from 'node:crypto';
import { type Behaviour, type FakeUpstream, startFakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';
import { type ServedDaemon, serve } from './serve.js';

export interface SeatConfig {
  id: string;
  provider: 'anthropic' | 'openai';
  base_url: string;
  /** absent for a seat that sends no key of its own (`auth: passthrough` or `none`) */
  api_key_env?: string;
  auth?: string;
}

export interface RouteConfig {
  model: string;
  chain: Array<{ seat: string; model: string }>;
}

export interface Setup {
  readonly daemon: ServedDaemon;
  /** each seat's fake upstream, by seat id */
  readonly upstreams: ReadonlyMap<string, FakeUpstream>;
  /** each seat's key, by seat id */
  readonly keys: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

export function seatsOf(config: Record<string, unknown>): SeatConfig[] {
  return config.seats as SeatConfig[];
}

export function routeOf(config: Record<string, unknown>, model: string): RouteConfig {
  const route = (config.routes as RouteConfig[]).find((r) => r.model === model);
  if (route === undefined) throw new Error(`the config has no route "${model}"`);
  return route;
}

/** `seat/model` of every target in a route's chain, in configured order. */
export function targetsOf(route: RouteConfig): string[] {
  return route.chain.map((entry) => `${entry.seat}/${entry.model}`);
}

/** `env`: more for `serve` (a token `server.auth_token_env` names, say). */
export async function bringUp(
  config: Record<string, unknown>,
  behaviourFor: (seat: SeatConfig) => Behaviour,
  env: Record<string, string> = {},
): Promise<Setup> {
  const upstreams = new Map<string, FakeUpstream>();
  const keys = new Map<string, string>();
  const seats: SeatConfig[] = [];
  const serveEnv: Record<string, string> = { ...env };
  try {
    for (const seat of seatsOf(config)) {
      const upstream = await startFakeUpstream(behaviourFor(seat));
      upstreams.set(seat.id, upstream);
      if (seat.api_key_env !== undefined) {
        const key = `${seat.provider === 'anthropic' ? 'sk-ant-api03' : 'sk-proj'}-${seat.id}-${randomBytes(12).toString('hex')}`;
        keys.set(seat.id, key);
        serveEnv[seat.api_key_env] = key;
      }
      // the base URL's path is kept (`/v1`, `/backend-api/codex`): only the host is the fake's
      const path = new URL(seat.base_url).pathname.replace(/\/+$/, '');
      seats.push({ ...seat, base_url: upstream.url + path });
    }
    const daemon = await serve({ ...config, seats }, serveEnv);
    return {
      daemon,
      upstreams,
      keys,
      async close() {
        await daemon.stop();
        for (const upstream of upstreams.values()) await upstream.close();
      },
    };
  } catch (error) {
    for (const upstream of upstreams.values()) await upstream.close();
    throw error;
  }
}
