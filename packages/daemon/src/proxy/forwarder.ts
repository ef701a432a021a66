import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Attempt, AttemptOutcome, Counters, DecisionChainEntry, Family } from '@routeplane/shared';
import type { Clock, Influence, Plan, PlannedTarget } from '../breaker/types.js';
import { type Evidence, evidenceClass } from '../signals/evidence.js';
import type { AgentLink } from './agent-link.js';
import { routeplaneHeaders } from './agent-response.js';
import { readErrorBody } from './error-body.js';
import { keepErrorResponse, sendKeptError, sendNoUpstreamAnswer, type KeptError } from './failure-answers.js';
import { relayedResponseHeaders, upstreamRequestHeaders } from './headers.js';
import { spliceModel } from './model-swap.js';
import { classifyStatus, transportEvidence } from './outcome.js';
import { relaySuccess } from './relay.js';
import type { FamilyChain, PreparedTarget } from './route-table.js';
import type { Span } from './top-level-scan.js';
import type { UpstreamClient } from './upstream-client.js';
import { upstreamPath } from './upstream-url.js';

/** One agent request on its way through the chain. */
export interface Exchange {
  readonly requestId: string;
  readonly family: Family;
  /** the inbound path with its query string, forwarded unchanged */
  readonly url: string;
  readonly agentHeaders: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly model: string;
  readonly modelSpan: Span;
  /** whether the agent is still there; cancels the attempt in flight when it hangs up */
  readonly agent: AgentLink;
  readonly res: ServerResponse;
}

/** What the decision needs to know once the request is over. */
export interface ForwardResult {
  chain: DecisionChainEntry[];
  attempts: Attempt[];
  servedBy: string | null;
  status: number;
  failOpen: boolean;
}

export interface ForwarderDeps {
  readonly influence: Influence;
  readonly counters: Counters;
  readonly clock: Clock;
  readonly client: UpstreamClient;
  readonly secrets: readonly string[];
}

/** Status recorded for a request whose agent hung up (nginx's convention). */
export const AGENT_CLOSED = 499;

/** After an attempt: move on (keeping its error response, if any), or the request is answered. */
type Step = { kind: 'next'; kept: KeptError | null } | { kind: 'stop'; status: number; servedBy: string | null };
const NEXT: Step = { kind: 'next', kept: null };
const AGENT_LEFT: Step = { kind: 'stop', status: AGENT_CLOSED, servedBy: null };

/** One attempt in progress. */
interface AttemptLog {
  readonly plan: Plan;
  readonly planned: PlannedTarget;
  readonly target: PreparedTarget;
  readonly attempts: Attempt[];
  readonly started: number;
}

/**
 * The attempt loop (spec "Attempts and fail-over"): walks the breaker's plan,
 * one attempt per target, maps each outcome to evidence, and answers the agent
 * exactly once.
 */
export class Forwarder {
  private readonly secretNeedles: readonly Buffer[];

  constructor(private readonly deps: ForwarderDeps) {
    this.secretNeedles = deps.secrets.map((s) => Buffer.from(s));
  }

  async forward(x: Exchange, chain: FamilyChain): Promise<ForwardResult> {
    const { influence, counters } = this.deps;
    const planned = influence.plan(chain.entries);
    // a promise only when a probe claim must be confirmed by a shared store
    const plan = planned instanceof Promise ? await planned : planned;
    if (plan.failOpen) counters.fail_open++;
    const attempts: Attempt[] = [];
    const result: ForwardResult = {
      chain: decisionChain(plan, chain),
      attempts,
      servedBy: null,
      status: AGENT_CLOSED,
      failOpen: plan.failOpen,
    };
    let kept: KeptError | null = null;
    try {
      for (const planned of plan.targets) {
        if (x.agent.gone) return result;
        if (attempts.length > 0) counters.failovers++;
        const target = resolveTarget(chain, planned);
        const step = await this.attempt(x, plan, planned, target, attempts);
        if (step.kind === 'next') {
          if (step.kept !== null) kept = step.kept;
          continue;
        }
        result.status = step.status;
        result.servedBy = step.servedBy;
        return result;
      }
      this.answerAllFailed(x, attempts, kept, result);
      return result;
    } finally {
      influence.finish(plan);
    }
  }

  /** One attempt on one target; answers the agent unless the request moves on. */
  private async attempt(x: Exchange, plan: Plan, planned: PlannedTarget, target: PreparedTarget, attempts: Attempt[]): Promise<Step> {
    const log: AttemptLog = { plan, planned, target, attempts, started: performance.now() };
    const request = {
      origin: target.upstream.origin,
      path: upstreamPath(target.upstream, x.url),
      headers: upstreamRequestHeaders(x.agentHeaders, target.headers),
      body: target.model === x.model ? x.body : spliceModel(x.body, x.modelSpan, target.modelJson),
    };
    const sent = await this.deps.client.send(request, x.agent);
    if (sent.kind === 'failed') {
      this.note(log, sent.failure, null, transportEvidence(sent.failure));
      return sent.failure === 'aborted' ? AGENT_LEFT : NEXT;
    }

    const { status } = sent;
    const classified = classifyStatus(status, sent.headers, this.deps.clock.now());
    const headers = relayedResponseHeaders(sent.headers, this.deps.secrets);

    if (classified.verdict === 'serve') {
      Object.assign(headers, routeplaneHeaders(x.requestId, attempts.length + 1, target.label));
      const relayed = await relaySuccess(x.res, status, headers, sent.body, x.agent, x.family, target.label);
      switch (relayed.kind) {
        case 'done':
          this.note(log, 'ok', status, classified.evidence);
          return { kind: 'stop', status, servedBy: target.label };
        case 'aborted':
          this.note(log, 'aborted', status, transportEvidence('aborted'));
          return AGENT_LEFT;
        case 'failed_early':
          this.note(log, relayed.failure, status, transportEvidence(relayed.failure));
          return NEXT;
        case 'broken':
          this.note(log, 'stream_error', status, transportEvidence('stream_error'));
          return { kind: 'stop', status, servedBy: target.label };
      }
    }

    const read = await readErrorBody(sent.body, x.agent);
    if (read.kind === 'aborted') {
      this.note(log, 'aborted', status, transportEvidence('aborted'));
      return AGENT_LEFT;
    }
    this.note(log, classified.outcome, status, classified.evidence);
    const kept = keepErrorResponse(x.family, status, headers, read, target.label, this.secretNeedles);
    if (classified.verdict === 'pass_back') {
      sendKeptError(x.res, x.requestId, attempts.length, kept);
      return { kind: 'stop', status, servedBy: target.label };
    }
    return { kind: 'next', kept };
  }

  /** Records one finished attempt: in the decision, and as evidence for the breaker. */
  private note(log: AttemptLog, outcome: AttemptOutcome, status: number | null, evidence: Evidence): void {
    const { target } = log;
    log.attempts.push({
      seat: target.seat,
      model: target.model,
      outcome,
      status,
      ms: Math.round(performance.now() - log.started),
      evidence: evidenceClass(evidence),
      signal: evidence.class === 'ok' || evidence.class === 'aborted' ? null : evidence.signal,
      retry: 0,
    });
    this.deps.influence.record(log.plan, log.planned, evidence);
  }

  /** Every target failed: the last upstream error as it was, else 502/504. */
  private answerAllFailed(x: Exchange, attempts: Attempt[], kept: KeptError | null, result: ForwardResult): void {
    if (x.agent.gone) return;
    if (kept === null) {
      result.status = sendNoUpstreamAnswer(x.res, x.family, x.requestId, attempts);
      return;
    }
    sendKeptError(x.res, x.requestId, attempts.length, kept);
    result.status = kept.status;
    result.servedBy = kept.label;
  }
}

/** A planned target back to its prepared form, by its configured index. */
function resolveTarget(chain: FamilyChain, planned: PlannedTarget): PreparedTarget {
  const found = chain.byIndex.get(planned.index);
  if (found === undefined) throw new Error(`planned target ${planned.seat}/${planned.model} is not in the route`);
  return found;
}

/** The decision's chain: the plan's order and states, then the targets skipped for their protocol. */
function decisionChain(plan: Plan, chain: FamilyChain): DecisionChainEntry[] {
  const out: DecisionChainEntry[] = plan.targets.map((t) => ({
    seat: t.seat,
    model: t.model,
    state: t.state,
    reason: t.reason,
    pinned: t.pinned,
    left_ms: t.leftMs,
  }));
  for (const s of chain.skipped) out.push(s);
  return out;
}
