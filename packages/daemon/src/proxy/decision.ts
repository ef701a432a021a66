import {
  type Attempt,
  type Balance,
  costOf,
  type DecisionChainEntry,
  type Family,
  type Lane,
  type Price,
  type Usage,
} from '@routeplane/shared';
import type { EventBus } from '../events/bus.js';
import type { PreparedTarget } from './route-table.js';

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
  /** the price of the target the decision counts against (servingTarget) */
  price: Price | null;
  /** that target's seat is the agent's own login: a plan's traffic has no per-request price */
  plan: boolean;
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

/**
 * The target a decision counts against: the one whose answer the agent got,
 * else the last one attempted (its failures are its own).
 */
export function servingTarget(
  targets: readonly PreparedTarget[],
  servedBy: string | null,
  attempts: readonly Attempt[],
): PreparedTarget | null {
  const last = attempts[attempts.length - 1];
  for (const t of targets) {
    if (servedBy !== null ? t.label === servedBy : last !== undefined && t.seat === last.seat && t.model === last.model) return t;
  }
  return null;
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
    cost: costOf(facts.usage, facts.price, facts.family, facts.plan),
    client: facts.client,
  });
}
