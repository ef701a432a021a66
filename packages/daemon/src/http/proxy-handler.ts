import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { DecisionChainEntry } from '@routeplane/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlanEntry, PlannedTarget } from '../breaker/types.js';
import type { DaemonContext } from '../context.js';
import { clientToken } from '../policy/client-token.js';
import { decisionHeader } from '../policy/decision-header.js';
import { chooseLane } from '../policy/lane.js';
import { LatencyTracker } from '../policy/latency.js';
import { checkPin, parsePinHeader, resolveRequested } from '../policy/pins.js';
import { reserveUntil } from '../policy/reserve.js';
import { sessionOf } from '../policy/session-key.js';
import { AgentLink } from '../proxy/agent-link.js';
import { routeplaneHeaders, sendJsonError } from '../proxy/agent-response.js';
import { heldBackAnswer } from '../proxy/held-back.js';
import { boundedModelName, type DecisionFacts, emitDecision } from '../proxy/decision.js';
import { type DaemonErrorKind, errorBody, errorStatus } from '../proxy/error-shapes.js';
import type { Exchange } from '../proxy/exchange.js';
import { familyOfPath } from '../proxy/family.js';
import { decisionChain, Forwarder } from '../proxy/forwarder.js';
import { readAgentBody } from '../proxy/request-body.js';
import type { FamilyChain, PreparedRoute } from '../proxy/route-table.js';
import { agentMayUse } from '../proxy/routing.js';
import { UpstreamClient } from '../proxy/upstream-client.js';
import { usageWindows } from '../signals/usage-windows.js';

const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

function hasDotSegment(url: string): boolean {
  const q = url.indexOf('?');
  return DOT_SEGMENT.test(q === -1 ? url : url.slice(0, q));
}

/**
 * `POST /v1/*`: pick the family by path, the route by the body's `model`
 * (through aliases and pins), check the agent's scope and the lane, order
 * the chain (balance, breakers, pin), then hand the request to the attempt
 * loop. Answers on the raw response (the reply is hijacked) and emits
 * exactly one decision.
 */
export class ProxyHandler {
  private client: UpstreamClient;
  private forwarder: Forwarder;
  private readonly retired: UpstreamClient[] = [];
  private readonly latency = new LatencyTracker();
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: DaemonContext) {
    this.client = new UpstreamClient(ctx.config.timeouts);
    this.forwarder = this.makeForwarder();
    // a reload changes secrets, limits and maybe timeouts: requests that start after it get a new forwarder
    this.unsubscribe = ctx.bus.subscribe((event) => {
      if (event.type === 'reload' && event.ok) this.reloaded();
    });
  }

  private makeForwarder(): Forwarder {
    const { ctx } = this;
    return new Forwarder({
      influence: ctx.influence,
      counters: ctx.counters,
      clock: ctx.clock,
      client: this.client,
      secrets: ctx.secrets,
      limits: { maxCooldownMs: ctx.config.influence.max_cooldown_secs * 1000 },
      observe: (seat, headers, now, headMs) => this.observe(seat, headers, now, headMs),
      latency: this.latency,
    });
  }

  private reloaded(): void {
    if (!this.client.sameTimeouts(this.ctx.config.timeouts)) {
      // requests in flight keep the old pool; it closes once they are done
      this.retired.push(this.client);
      void this.client.drain();
      this.client = new UpstreamClient(this.ctx.config.timeouts);
    }
    this.forwarder = this.makeForwarder();
  }

  /** fastify route handler; bound so it can be passed as is */
  readonly handle = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    const res = reply.raw;
    const facts: DecisionFacts = {
      requestId: randomUUID(),
      route: null,
      family: familyOfPath(request.url),
      stream: false,
      chain: [],
      attempts: [],
      servedBy: null,
      status: 0,
      startedAt: performance.now(),
      failOpen: false,
      requested: null,
      agent: request.agent?.id ?? null,
      lane: 'foreground',
      session: null,
      balance: 'ordered',
      skipped: false,
      usage: null,
      client: clientToken(request.headers['user-agent']),
    };
    this.ctx.counters.requests++;
    try {
      await this.route(request, res, facts);
    } catch (err) {
      // A defect of ours, not the upstream's: answer if we still can, never crash the daemon.
      // Only the error's name goes out: a message could quote a header value.
      const name = err instanceof Error ? err.name : 'error';
      if (!res.headersSent) facts.status = this.fail(res, facts, 'internal', `routeplane internal error (${name})`, null);
      else if (!res.writableEnded) res.destroy();
      facts.status ||= 500;
    }
    emitDecision(this.ctx.bus, facts);
  };

  private async route(request: FastifyRequest, res: ServerResponse, facts: DecisionFacts): Promise<void> {
    if (hasDotSegment(request.url)) {
      // `/v1/../admin` would reach past the seat's base path carrying the seat's key
      facts.status = this.fail(res, facts, 'bad_request', 'request path must not contain "." or ".." segments', null);
      return;
    }
    const body = readAgentBody(request.body as Buffer | undefined);
    if (!body.ok) {
      facts.status = this.fail(res, facts, 'bad_request', body.message, null);
      return;
    }
    facts.stream = body.stream;
    facts.requested = boundedModelName(body.model, this.ctx.secrets);
    // read once: a reload swaps the routing for requests that start after it
    const routing = this.ctx.routing;
    const resolved = resolveRequested(body.model, routing.aliases, routing.seatIds);
    const route = resolved.route === null ? undefined : routing.routes.get(resolved.route);
    if (route === undefined) {
      facts.route = facts.requested;
      const message = `unknown model ${JSON.stringify(facts.route)}; ${routing.knownNames}`;
      facts.status = this.fail(res, facts, 'unknown_model', message, null);
      return;
    }
    facts.route = route.name;
    facts.balance = route.balance;
    // before any refusal, so every decision of a resolved route says whose session it was (a header or body-field read)
    const session = sessionOf(request.headers, facts.family, body.body, body.sessionSpans);
    facts.session = session?.tag ?? null;
    const chain = route[facts.family];
    if (chain.targets.length === 0 && !chain.allDrained) {
      facts.chain = [...chain.skipped];
      const message = `route ${JSON.stringify(route.name)} has no ${facts.family} target (every seat in its chain speaks the other protocol)`;
      facts.status = this.fail(res, facts, 'no_family_target', message, decisionHeader(facts.chain, false));
      return;
    }

    const agent = request.agent;
    const lane = chooseLane(request.headers['x-routeplane-lane'], agent?.lane ?? null, route.lane);
    if (lane.ok) facts.lane = lane.lane;
    // a pin: the header wins over a `SEAT/ROUTE` model name
    const pin = parsePinHeader(request.headers['x-routeplane-pin']) ?? resolved.pin;
    const pinned = pin === null ? null : checkPin(pin, route.name, route.pinChain, facts.family, routing.seatIds);
    const pinnedIndex = pinned?.ok ? pinned.index : null;

    // Refusals after the route resolved still explain the chain (x-routeplane-decision).
    const refuse = (kind: DaemonErrorKind, message: string): void => {
      facts.chain = explained(this.ctx.influence.preview(chain.entries, pinnedIndex), chain);
      facts.status = this.fail(res, facts, kind, message, decisionHeader(facts.chain, false));
    };
    if (!agentMayUse(agent, route.name))
      return refuse('forbidden', `route ${JSON.stringify(route.name)} is not allowed for agent ${JSON.stringify(agent?.id)}`);
    if (!lane.ok) return refuse('bad_request', lane.message);
    if (pinned !== null && !pinned.ok) return refuse('bad_request', pinned.message);
    if (chain.allDrained)
      return refuse('unavailable', `route ${JSON.stringify(route.name)} has every ${facts.family} target drained (weight 0)`);

    const forwarder = this.forwarder;
    const plan = await forwarder.plan(this.baseOrder(route, chain, session?.key ?? null), {
      lane: facts.lane,
      pinnedIndex,
      reserveUntil: facts.lane === 'background' ? (seat) => this.reserveOf(seat) : undefined,
    });
    if (plan.heldBack !== null) {
      // background work with nothing routable: told when to come back, never sent into a tripped seat
      this.ctx.influence.countSkipped(plan);
      facts.skipped = true;
      facts.chain = decisionChain(plan.passedOver ?? [], chain);
      facts.status = heldBackAnswer(res, facts, route.name, plan.heldBack, this.ctx.clock.now(), decisionHeader(facts.chain, false));
      return;
    }

    const exchange: Exchange = {
      requestId: facts.requestId,
      family: facts.family,
      url: request.url,
      agentHeaders: request.headers,
      body: body.body,
      model: body.model,
      modelSpan: body.modelSpan,
      agent: new AgentLink(res),
      res,
      decisionHeader: null,
    };
    const result = await forwarder.forward(exchange, chain, plan, route.retry);
    facts.chain = result.chain;
    facts.attempts = result.attempts;
    facts.servedBy = result.servedBy;
    facts.status = result.status;
    facts.failOpen = result.failOpen;
    facts.usage = result.usage;
  }

  /** The request's base order; the breaker reorders it. */
  private baseOrder(route: PreparedRoute, chain: FamilyChain, sessionKey: string | null): readonly PlanEntry[] {
    switch (route.balance) {
      case 'ordered':
        return chain.entries;
      case 'spread': {
        // no session: a fresh random key, so requests spread one by one
        const order = chain.rendezvous!.order(sessionKey ?? randomUUID());
        return order.map((i) => chain.entries[i]!);
      }
      case 'cost':
        return chain.byCost!;
      case 'latency':
        return this.latency.order(chain.entries);
    }
  }

  private reserveOf(seat: string): number | null {
    const pct = this.ctx.seats.get(seat)?.reserve_pct ?? 0;
    return pct <= 0 ? null : reserveUntil(this.ctx.usage.liveOf(seat), pct, this.ctx.clock.now());
  }

  /** Every answer's usage headers update the seat's windows (display, and background reserves). */
  private observe(seat: string, headers: Record<string, string | string[] | undefined>, now: number, headMs: number): void {
    this.ctx.metrics.firstByte(seat, headMs);
    const windows = usageWindows(headers, now);
    if (windows.length === 0) return;
    this.ctx.usage.observe(seat, windows, now);
  }

  /** Answers a daemon-made error (nothing sent upstream) and returns its status. */
  private fail(res: ServerResponse, facts: DecisionFacts, kind: DaemonErrorKind, message: string, decision: string | null): number {
    const status = errorStatus(kind);
    sendJsonError(
      res,
      status,
      routeplaneHeaders(facts.requestId, facts.attempts.length, null, decision),
      errorBody(facts.family, kind, message),
    );
    return status;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await Promise.all([this.client, ...this.retired].map((c) => c.close()));
  }
}

/** A chain shown without being tried: the previewed order, then the skipped entries. */
function explained(targets: readonly PlannedTarget[], chain: FamilyChain): DecisionChainEntry[] {
  return decisionChain(targets, chain);
}
