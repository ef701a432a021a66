import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DaemonContext } from '../context.js';
import { AgentLink } from '../proxy/agent-link.js';
import { routeplaneHeaders, sendJsonError } from '../proxy/agent-response.js';
import { boundedModelName, emitDecision, type DecisionFacts } from '../proxy/decision.js';
import { errorBody, errorStatus, type DaemonErrorKind } from '../proxy/error-shapes.js';
import { familyOfPath } from '../proxy/family.js';
import { Forwarder } from '../proxy/forwarder.js';
import { readAgentBody } from '../proxy/request-body.js';
import { prepareRoutes, type PreparedRoute } from '../proxy/route-table.js';
import { UpstreamClient } from '../proxy/upstream-client.js';

const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:\/|$)/i;

function hasDotSegment(url: string): boolean {
  const q = url.indexOf('?');
  return DOT_SEGMENT.test(q === -1 ? url : url.slice(0, q));
}

/**
 * `POST /v1/*`: pick the family by path, the route by the body's `model`,
 * then hand the request to the attempt loop. Answers on the raw response
 * (the reply is hijacked) and emits exactly one decision.
 */
export class ProxyHandler {
  private readonly routes: Map<string, PreparedRoute>;
  private readonly routeNames: string;
  private readonly client: UpstreamClient;
  private readonly forwarder: Forwarder;

  constructor(private readonly ctx: DaemonContext) {
    this.routes = prepareRoutes(ctx);
    this.routeNames = [...this.routes.keys()].map((n) => JSON.stringify(n)).join(', ');
    this.client = new UpstreamClient(ctx.config.timeouts);
    this.forwarder = new Forwarder({
      influence: ctx.influence,
      counters: ctx.counters,
      clock: ctx.clock,
      client: this.client,
      secrets: ctx.secrets,
    });
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
      agent: null,
      lane: 'foreground',
      session: null,
      balance: 'ordered',
      skipped: false,
      usage: null,
      client: null,
    };
    this.ctx.counters.requests++;
    try {
      await this.route(request, res, facts);
    } catch (err) {
      // A defect of ours, not the upstream's: answer if we still can, never crash the daemon.
      // Only the error's name goes out: a message could quote a header value.
      const name = err instanceof Error ? err.name : 'error';
      if (!res.headersSent) facts.status = this.fail(res, facts, 'internal', `routeplane internal error (${name})`);
      else if (!res.writableEnded) res.destroy();
      facts.status ||= 500;
    }
    emitDecision(this.ctx.bus, facts);
  };

  private async route(request: FastifyRequest, res: ServerResponse, facts: DecisionFacts): Promise<void> {
    if (hasDotSegment(request.url)) {
      // `/v1/../admin` would reach past the seat's base path carrying the seat's key
      facts.status = this.fail(res, facts, 'bad_request', 'request path must not contain "." or ".." segments');
      return;
    }
    const body = readAgentBody(request.body as Buffer | undefined);
    if (!body.ok) {
      facts.status = this.fail(res, facts, 'bad_request', body.message);
      return;
    }
    facts.stream = body.stream;
    facts.requested = boundedModelName(body.model, this.ctx.secrets);
    const route = this.routes.get(body.model);
    if (route === undefined) {
      facts.route = boundedModelName(body.model, this.ctx.secrets);
      const message = `unknown model ${JSON.stringify(facts.route)}; known routes: ${this.routeNames}`;
      facts.status = this.fail(res, facts, 'unknown_model', message);
      return;
    }
    facts.route = route.name;
    facts.balance = route.balance;
    const chain = route[facts.family];
    if (chain.targets.length === 0) {
      facts.chain = [...chain.skipped];
      const message = `route ${JSON.stringify(route.name)} has no ${facts.family} target (every seat in its chain speaks the other protocol)`;
      facts.status = this.fail(res, facts, 'no_family_target', message);
      return;
    }

    const result = await this.forwarder.forward(
      {
        requestId: facts.requestId,
        family: facts.family,
        url: request.url,
        agentHeaders: request.headers,
        body: body.body,
        model: body.model,
        modelSpan: body.modelSpan,
        agent: new AgentLink(res),
        res,
      },
      chain,
    );
    facts.chain = result.chain;
    facts.attempts = result.attempts;
    facts.servedBy = result.servedBy;
    facts.status = result.status;
    facts.failOpen = result.failOpen;
  }

  /** Answers a daemon-made error (nothing sent upstream) and returns its status. */
  private fail(res: ServerResponse, facts: DecisionFacts, kind: DaemonErrorKind, message: string): number {
    const status = errorStatus(kind);
    sendJsonError(res, status, routeplaneHeaders(facts.requestId, facts.attempts.length, null), errorBody(facts.family, kind, message));
    return status;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
