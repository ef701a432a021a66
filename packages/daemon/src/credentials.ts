import { type Config, type Env, type SeatAuth, type SeatConfig, seatAuth, sendsSeatKey } from '@routeplane/shared';
import { type AgentIdentity, TokenCheck } from './http/auth.js';

/**
 * The secrets a config names, read from the environment once (at start and
 * on reload): each seat's key, its header values from the environment, and
 * every agent token. They are never logged or echoed; the daemon redacts them
 * wherever an upstream might echo one.
 */

/**
 * A seat with its secrets resolved once at start (never logged, never
 * echoed): its key (null for `passthrough` and `none`, which send none of
 * their own), its `auth` as it works, and its header values, those named
 * `{ env: NAME }` read from the environment.
 */
export interface ResolvedSeat extends Omit<SeatConfig, 'headers'> {
  readonly auth: SeatAuth;
  readonly apiKey: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** Each seat with its key and header values resolved from the environment; every value read there is a secret. */
export function resolveSeats(config: Config, env: Env): { seats: Map<string, ResolvedSeat>; secrets: string[] } {
  const seats = new Map<string, ResolvedSeat>();
  const secrets: string[] = [];
  const read = (name: string, what: string): string => {
    const value = env[name];
    if (!value) throw new Error(`environment variable ${name} is not set (${what})`);
    secrets.push(value);
    return value;
  };
  for (const seat of config.seats) {
    const auth = seatAuth(seat);
    const apiKey = sendsSeatKey(auth) && seat.api_key_env !== undefined ? read(seat.api_key_env, `seat ${seat.id}`) : null;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(seat.headers)) {
      headers[name] = typeof value === 'string' ? value : read(value.env, `seat ${seat.id} header ${name}`);
    }
    seats.set(seat.id, { ...seat, auth, apiKey, headers });
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
