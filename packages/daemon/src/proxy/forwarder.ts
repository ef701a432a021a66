import type { Attempt, Counters, DecisionChainEntry, RetryConfig, Usage } from '@routeplane/shared';
import type { Clock, Influence, Plan, PlanEntry, PlannedTarget, PlanOptions } from '../breaker/types.js';
import type { LatencyTracker } from '../policy/latency.js';
import { decisionHeader } from '../policy/decision-header.js';
import { planRetry } from '../policy/retry-plan.js';
import type { ClassifyLimits } from '../signals/classify.js';
import { evidenceClass } from '../signals/evidence.js';
import { answerToRelay, type FailedAnswer } from '../signals/rank-failures.js';
import { type AttemptDeps, attemptTarget } from './attempt.js';
import type { Exchange } from './exchange.js';
import { type KeptError, sendKeptError, sendNoUpstreamAnswer } from './failure-answers.js';
import { type RequestSkip, skippedEntry } from './request-skips.js';
import type { FamilyChain, PreparedTarget } from './route-table.js';
import type { UpstreamClient } from './upstream-client.js';

/** What the decision needs to know once the request is over. */
export interface ForwardResult {
  chain: DecisionChainEntry[];
  attempts: Attempt[];
  servedBy: string | null;
  status: number;
  failOpen: boolean;
  /** the token usage the serving upstream reported, when it did */
  usage: Usage | null;
}

export interface ForwarderDeps {
  readonly influence: Influence;
  readonly counters: Counters;
  readonly clock: Clock;
  readonly client: UpstreamClient;
  readonly secrets: readonly string[];
  readonly limits: ClassifyLimits;
  /** influence.cooldown_secs in ms: how long `extra_usage: avoid` holds a seat whose answer stated no reset */
  readonly extraUsageCooldownMs: number;
  readonly observe: AttemptDeps['observe'];
  /** time to first byte of ok attempts, for `balance: latency` */
  readonly latency: LatencyTracker;
  /** uniform in [0, 1): the retry jitter's source */
  readonly random?: () => number;
}

/** Status recorded for a request whose agent hung up (nginx's convention). */
export const AGENT_CLOSED = 499;

/** A failed attempt whose answer the agent may get if everything fails. */
type Failure = FailedAnswer & { kept: KeptError };

/**
 * The attempt loop:
 * walks the breaker's plan, one attempt per target plus the route's retries,
 * and answers the agent exactly once — when everything failed, with the
 * failed answer that says "retry soon" most truthfully.
 */
export class Forwarder {
  private readonly attemptDeps: AttemptDeps;
  private readonly random: () => number;

  constructor(private readonly deps: ForwarderDeps) {
    this.random = deps.random ?? Math.random;
    this.attemptDeps = {
      influence: deps.influence,
      client: deps.client,
      now: () => deps.clock.now(),
      secrets: { strings: deps.secrets, needles: deps.secrets.map((s) => Buffer.from(s)) },
      limits: deps.limits,
      extraUsageCooldownMs: deps.extraUsageCooldownMs,
      observe: deps.observe,
      firstByte: (label, ms) => deps.latency.observe(label, ms),
    };
  }

  /** Orders the chain (`base`: the request's base order) and claims probes; the caller answers background work that has nothing routable. */
  async plan(base: readonly PlanEntry[], options: PlanOptions): Promise<Plan> {
    const planned = this.deps.influence.plan(base, options);
    // a promise only when a probe claim must be confirmed by a shared store
    return planned instanceof Promise ? await planned : planned;
  }

  async forward(x: Exchange, chain: FamilyChain, plan: Plan, retry: RetryConfig | null): Promise<ForwardResult> {
    const { influence, counters } = this.deps;
    if (plan.failOpen) counters.fail_open++;
    const attempts: Attempt[] = [];
    const result: ForwardResult = {
      chain: decisionChain(plan.passedOver === undefined ? plan.targets : [...plan.targets, ...plan.passedOver], chain, x.skipped),
      attempts,
      servedBy: null,
      status: AGENT_CLOSED,
      failOpen: plan.failOpen,
      usage: null,
    };
    x.decisionHeader = decisionHeader(result.chain, plan.failOpen);
    const failures: Failure[] = [];
    let waitedMs = 0;
    try {
      for (const planned of plan.targets) {
        if (attempts.length > 0) counters.failovers++;
        const target = resolveTarget(chain, planned);
        for (let n = 0; ; n++) {
          if (x.agent.gone) return result;
          const step = await attemptTarget(this.attemptDeps, x, plan, planned, target, attempts, n);
          if (step.kind === 'agent_left') return result;
          if (step.kind === 'answered') {
            result.status = step.status;
            result.servedBy = target.label;
            result.usage = step.usage;
            return result;
          }
          if (step.kept !== null) failures.push({ evidence: step.evidence, at: step.at, kept: step.kept });
          const again = planRetry({
            retry,
            attemptsOnTarget: n + 1,
            failed: { evidence: evidenceClass(step.evidence) ?? 'none', status: step.status, retryAfterMs: step.retryAfterMs },
            probe: planned.state === 'probe',
            // what this answer did, not what stood before it: a pinned or fail-open target keeps its retries
            tripped: step.tripped,
            waitedMs,
            random: this.random,
          });
          if (!again.retry) break;
          waitedMs += again.waitMs;
          await x.agent.wait(again.waitMs);
        }
      }
      this.answerAllFailed(x, attempts, failures, result);
      return result;
    } finally {
      influence.finish(plan);
    }
  }

  /** Every target failed: the best-ranked upstream answer as it was, else 502/504. */
  private answerAllFailed(x: Exchange, attempts: Attempt[], failures: readonly Failure[], result: ForwardResult): void {
    if (x.agent.gone) return;
    const best = answerToRelay(failures);
    if (best === null) {
      result.status = sendNoUpstreamAnswer(x.res, x.family, x.requestId, attempts, x.decisionHeader);
      return;
    }
    sendKeptError(x.res, x.requestId, attempts.length, best.kept, x.decisionHeader);
    result.status = best.kept.status;
    result.servedBy = best.kept.label;
  }
}

/** A planned target back to its prepared form, by its configured index. */
function resolveTarget(chain: FamilyChain, planned: PlannedTarget): PreparedTarget {
  const found = chain.byIndex.get(planned.index);
  if (found === undefined) throw new Error(`planned target ${planned.seat}/${planned.model} is not in the route`);
  return found;
}

/**
 * The decision's chain: the plan's order and states, then every skipped
 * target — the route's (protocol, drained) and this request's own
 * (`requestSkipped`) — in configured order.
 */
export function decisionChain(
  targets: readonly PlannedTarget[],
  chain: FamilyChain,
  requestSkipped: readonly RequestSkip[] = NO_SKIPS,
): DecisionChainEntry[] {
  const out: DecisionChainEntry[] = targets.map((t) => ({
    seat: t.seat,
    model: t.model,
    state: t.state,
    reason: t.reason,
    pinned: t.pinned,
    left_ms: t.leftMs,
  }));
  if (requestSkipped.length === 0) {
    for (const s of chain.skipped) out.push(s);
    return out;
  }
  const skipped = chain.skipped.map((entry, i) => ({ at: chain.skippedAt[i]!, entry }));
  for (const skip of requestSkipped) skipped.push({ at: skip.target.index, entry: skippedEntry(skip) });
  skipped.sort((a, b) => a.at - b.at);
  for (const s of skipped) out.push(s.entry);
  return out;
}

const NO_SKIPS: readonly RequestSkip[] = Object.freeze([]);
