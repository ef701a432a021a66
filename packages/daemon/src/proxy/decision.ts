import type { Attempt, Balance, DecisionChainEntry, Family, Lane, Usage } from '@routeplane/shared';
import type { EventBus } from '../events/bus.js';

/** Everything one proxied request's decision event says. */
export interface DecisionFacts {
  requestId: string;
  route: string | null;
  family: Family;
  stream: boolean;
  chain: DecisionChainEntry[];
  attempts: Attempt[];
  servedBy: string | null;
  status: number;
  startedAt: number;
  failOpen: boolean;
  requested: string | null;
  agent: string | null;
  lane: Lane;
  session: string | null;
  balance: Balance;
  skipped: boolean;
  usage: Usage | null;
  client: string | null;
}

/** Agents choose the model string; a hostile one must not bloat every log line. */
const MAX_ROUTE_CHARS = 256;

/**
 * An unknown model as it may be logged and shown. A misconfigured agent can
 * send a key as its model (a swapped environment variable): any secret in it
 * is redacted before it reaches the decision log, events or `top`.
 */
export function boundedModelName(model: string, secrets: readonly string[] = []): string {
  let name = model;
  for (const secret of secrets) if (name.includes(secret)) name = name.split(secret).join('[redacted]');
  return name.length <= MAX_ROUTE_CHARS ? name : `${name.slice(0, MAX_ROUTE_CHARS)}…`;
}

/** Emits the request's one decision; `startedAt` is a `performance.now()` reading. */
export function emitDecision(bus: EventBus, facts: DecisionFacts): void {
  bus.emit({
    type: 'decision',
    request_id: facts.requestId,
    route: facts.route,
    family: facts.family,
    stream: facts.stream,
    chain: facts.chain,
    attempts: facts.attempts,
    served_by: facts.servedBy,
    status: facts.status,
    duration_ms: Math.round(performance.now() - facts.startedAt),
    fail_open: facts.failOpen,
    requested: facts.requested,
    agent: facts.agent,
    lane: facts.lane,
    session: facts.session,
    balance: facts.balance,
    skipped: facts.skipped,
    usage: facts.usage,
    client: facts.client,
  });
}
