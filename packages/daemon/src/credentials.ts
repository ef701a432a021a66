import type { Config, Env, SeatConfig } from '@routeplane/shared';
import { type AgentIdentity, TokenCheck } from './http/auth.js';

/**
 * The secrets a config names, read from the environment once (at start and
 * on reload): each seat's key and every agent token. They are never logged
 * or echoed; the daemon redacts them wherever an upstream might echo one.
 */

/** A seat with its key resolved once at start (never logged, never echoed). */
export interface ResolvedSeat extends SeatConfig {
  readonly apiKey: string;
}

/** Each seat with its key resolved from the environment (never logged, never echoed). */
export function resolveSeats(config: Config, env: Env): { seats: Map<string, ResolvedSeat>; secrets: string[] } {
  const seats = new Map<string, ResolvedSeat>();
  const secrets: string[] = [];
  for (const seat of config.seats) {
    const apiKey = env[seat.api_key_env];
    if (!apiKey) throw new Error(`environment variable ${seat.api_key_env} is not set (seat ${seat.id})`);
    seats.set(seat.id, { ...seat, apiKey });
    secrets.push(apiKey);
  }
  return { seats, secrets };
}

/** The agent tokens as one check (null when none is configured), and the tokens to redact. */
export function agentTokenCheck(config: Config, env: Env): { check: TokenCheck | null; secrets: string[] } {
  const tokens = agentTokens(config, env);
  return { check: tokens.length === 0 ? null : new TokenCheck(tokens), secrets: tokens.map((t) => t.token) };
}

/**
 * Every agent token: `server.agents`, and
 * `server.auth_token_env` as one more agent, `default`, with no limits.
 */
function agentTokens(config: Config, env: Env): Array<{ token: string; agent: AgentIdentity }> {
  const out: Array<{ token: string; agent: AgentIdentity }> = [];
  const tokenEnv = config.server.auth_token_env;
  if (tokenEnv !== null) {
    const token = env[tokenEnv];
    if (!token) throw new Error(`environment variable ${tokenEnv} is not set (server.auth_token_env)`);
    out.push({ token, agent: { id: 'default', allow: [], deny: [], lane: null } });
  }
  for (const agent of config.server.agents) {
    const token = env[agent.token_env];
    if (!token) throw new Error(`environment variable ${agent.token_env} is not set (server.agents: ${agent.id})`);
    out.push({ token, agent: { id: agent.id, allow: agent.allow, deny: agent.deny, lane: agent.lane } });
  }
  return out;
}
