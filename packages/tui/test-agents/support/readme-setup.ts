/**
 * The README's config brought up for real: one fake upstream per seat it
 * declares (answering as that seat's provider would), the seats' base URLs
 * pointed at them, a key for every `api_key_env`, and `routeplane serve` on
 * top. Also usable with any other config of the same shape.
 */
import { randomBytes } from 'node:crypto';
import { type Behaviour, type FakeUpstream, startFakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';
import { type ServedDaemon, serve } from './serve.js';

export interface SeatConfig {
  id: string;
  provider: 'anthropic' | 'openai';
  base_url: string;
  api_key_env: string;
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

export async function bringUp(config: Record<string, unknown>, behaviourFor: (seat: SeatConfig) => Behaviour): Promise<Setup> {
  const upstreams = new Map<string, FakeUpstream>();
  const keys = new Map<string, string>();
  const env: Record<string, string> = {};
  const seats: SeatConfig[] = [];
  try {
    for (const seat of seatsOf(config)) {
      const upstream = await startFakeUpstream(behaviourFor(seat));
      upstreams.set(seat.id, upstream);
      const key = `${seat.provider === 'anthropic' ? 'sk-ant-api03' : 'sk-proj'}-${seat.id}-${randomBytes(12).toString('hex')}`;
      keys.set(seat.id, key);
      env[seat.api_key_env] = key;
      // a base_url ending in /v1 keeps it, as the README's OpenAI seat does
      seats.push({ ...seat, base_url: seat.base_url.endsWith('/v1') ? `${upstream.url}/v1` : upstream.url });
    }
    const daemon = await serve({ ...config, seats }, env);
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
