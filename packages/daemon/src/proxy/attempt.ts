import type { Attempt, AttemptOutcome, Usage } from '@routeplane/shared';
import type { Influence, Plan, PlannedTarget, Recorded } from '../breaker/types.js';
import { classifyAnswer, type ClassifyLimits } from '../signals/classify.js';
import { classifyEmbedded } from '../signals/embedded-error.js';
import { type Evidence, evidenceClass, OK } from '../signals/evidence.js';
import { extraUsageOf, extraUsageQuota } from '../signals/extra-usage.js';
import { firstValue, parseRetryAfter, type UpstreamHeaders } from '../signals/retry-after.js';
import { StreamErrorScan, scannable } from '../signals/stream-error-scan.js';
import { transportEvidence } from '../signals/transport-evidence.js';
import { routeplaneHeaders } from './agent-response.js';
import { readErrorBody, redactSecrets } from './error-body.js';
import { keepErrorResponse, type KeptError, sendKeptError } from './failure-answers.js';
import { relayedResponseHeaders, upstreamRequestHeaders } from './headers.js';
import { spliceModel } from './model-swap.js';
import { relaySuccess } from './relay.js';
import type { PreparedTarget } from './route-table.js';
import type { Exchange } from './exchange.js';
import { type RequestSecrets, withLogin } from './login-secrets.js';
import type { UpstreamClient, UpstreamResult } from './upstream-client.js';
import { upstreamPath } from './upstream-url.js';
import { UsageTap } from '../usage/usage-tap.js';

/** What one attempt came to. */
export type AttemptResult =
  /** the agent got an answer from this target: served, passed back (the request's fault), or broken mid-body */
  | { kind: 'answered'; status: number; usage: Usage | null }
  | { kind: 'agent_left' }
  /**
   * the request may move on (or retry): what it was evidence of, the answer to relay if all fail, and
   * whether recording it tripped a breaker that waits for a probe on this target (then it is not retried)
   */
  | {
      kind: 'failed';
      evidence: Evidence;
      status: number | null;
      kept: KeptError | null;
      retryAfterMs: number | null;
      at: number;
      tripped: boolean;
    };

export interface AttemptDeps {
  readonly influence: Influence;
  readonly client: UpstreamClient;
  readonly now: () => number;
  /** the daemon's own secrets; a request to a login seat adds the agent's login (login-secrets.ts) */
  readonly secrets: RequestSecrets;
  readonly limits: ClassifyLimits;
  /** `extra_usage: avoid` without a stated reset holds the seat this long (influence.cooldown_secs) */
  readonly extraUsageCooldownMs: number;
  /** every answer's headers, for the seat's usage windows */
  readonly observe: (seat: string, headers: Record<string, string | string[] | undefined>, now: number, headMs: number) => void;
  /** time to the response head of an answer that was served (`balance: latency`) */
  readonly firstByte: (label: string, ms: number) => void;
}

/**
 * One attempt on one target:
 * send it, classify the answer — by status, headers and error body, or by
 * the first chunk of a 2xx — record the evidence, and answer the agent
 * unless the request moves on.
 */
export async function attemptTarget(
  deps: AttemptDeps,
  x: Exchange,
  plan: Plan,
  planned: PlannedTarget,
  target: PreparedTarget,
  attempts: Attempt[],
  retry: number,
): Promise<AttemptResult> {
  const started = performance.now();
  const note = (outcome: AttemptOutcome, status: number | null, evidence: Evidence): Recorded => {
    attempts.push({
      seat: target.seat,
      model: target.model,
      outcome,
      status,
      ms: Math.round(performance.now() - started),
      evidence: evidenceClass(evidence),
      signal: evidence.class === 'ok' || evidence.class === 'aborted' ? null : evidence.signal,
      retry,
    });
    return deps.influence.record(plan, planned, evidence);
  };
  const transport = (failure: 'timeout' | 'network' | 'stream_error', status: number | null): AttemptResult => {
    const evidence = transportEvidence(failure);
    const { tripped } = note(failure, status, evidence);
    return { kind: 'failed', evidence, status: null, kept: null, retryAfterMs: null, at: deps.now(), tripped };
  };

  const secrets = target.login ? (x.secrets ??= withLogin(deps.secrets, x.agentHeaders)) : deps.secrets;
  const sent: UpstreamResult = await deps.client.send(
    {
      origin: target.upstream.origin,
      path: upstreamPath(target.upstream, x.url),
      headers: upstreamRequestHeaders(x.agentHeaders, target.headers),
      body: target.model === x.model ? x.body : spliceModel(x.body, x.modelSpan, target.modelJson),
    },
    x.agent,
  );
  if (sent.kind === 'failed') {
    if (sent.failure === 'aborted') return agentLeft(note, null);
    return transport(sent.failure, null);
  }

  const { status } = sent;
  const headMs = performance.now() - started;
  const now = deps.now();
  const headers = relayedResponseHeaders(sent.headers, secrets.strings);
  // usage windows end up on screens: read from the relayed headers, which drop any that carry a secret
  deps.observe(target.seat, headers, now, headMs);

  if (status >= 200 && status < 300) {
    Object.assign(headers, routeplaneHeaders(x.requestId, attempts.length + 1, target.label, x.decisionHeader));
    const check = (head: Buffer) =>
      classifyEmbedded(
        { family: x.family, headers: sent.headers, chunk: head, now, secrets: secrets.strings, login: target.login },
        deps.limits,
      );
    const encoding = sent.headers['content-encoding'];
    const tap = new UsageTap(encoding === undefined || encoding === 'identity');
    const redact = (chunk: Buffer) => redactSecrets(chunk, secrets.needles);
    const scan = scannable(firstValue(sent.headers['content-type']), firstValue(encoding)) ? new StreamErrorScan(x.family) : null;
    const relayed = await relaySuccess({
      res: x.res,
      status,
      headers,
      body: sent.body,
      agent: x.agent,
      family: x.family,
      label: target.label,
      check,
      tap,
      redact,
      scan,
    });
    switch (relayed.kind) {
      case 'done':
        if (relayed.passedBack !== null) {
          // an error the request caused, relayed as the upstream sent it: evidence of nothing, and no success either
          note(relayed.passedBack.outcome, status, relayed.passedBack.evidence);
          return { kind: 'answered', status, usage: null };
        }
        deps.firstByte(target.label, headMs);
        note('ok', status, servedEvidence(deps, target, sent.headers, status, now, secrets));
        return { kind: 'answered', status, usage: tap.usage() };
      case 'aborted':
        return agentLeft(note, status);
      case 'failed_early':
        return transport(relayed.failure, status);
      case 'broken':
      case 'error_event':
        // bytes reached the agent: no fail-over, but no success either — a model failure on the target's streak
        note('stream_error', status, transportEvidence('stream_error'));
        return { kind: 'answered', status, usage: tap.usage() };
      case 'embedded_error': {
        const { classified, body } = relayed;
        const { tripped } = note(classified.outcome, status, classified.evidence);
        const kept = keepErrorResponse(x.family, status, headers, { kind: 'read', body }, target.label, secrets.needles);
        return { kind: 'failed', evidence: classified.evidence, status, kept, retryAfterMs: null, at: now, tripped };
      }
    }
  }

  const read = await readErrorBody(sent.body, x.agent);
  if (read.kind === 'aborted') return agentLeft(note, status);
  const body = read.kind === 'too_large' ? null : read.body;
  const classified = classifyAnswer(
    { family: x.family, status, headers: sent.headers, body, now, secrets: secrets.strings, login: target.login },
    deps.limits,
  );
  const { tripped } = note(classified.outcome, status, classified.evidence);
  const kept = keepErrorResponse(x.family, status, headers, read, target.label, secrets.needles);
  if (classified.verdict === 'pass_back') {
    sendKeptError(x.res, x.requestId, attempts.length, kept, x.decisionHeader);
    return { kind: 'answered', status, usage: null };
  }
  const retryAfterMs = parseRetryAfter(sent.headers['retry-after-ms'], sent.headers['retry-after'], now);
  return { kind: 'failed', evidence: classified.evidence, status, kept, retryAfterMs, at: now, tripped };
}

function agentLeft(
  note: (outcome: AttemptOutcome, status: number | null, evidence: Evidence) => Recorded,
  status: number | null,
): AttemptResult {
  note('aborted', status, transportEvidence('aborted'));
  return { kind: 'agent_left' };
}

/**
 * What a served 2xx is evidence of: a success — unless the seat avoids extra
 * usage and the answer says it was billed as such (docs/seats.md): then it
 * holds the seat's quota until the plan resets, and clears nothing.
 */
function servedEvidence(
  deps: AttemptDeps,
  target: PreparedTarget,
  headers: UpstreamHeaders,
  status: number,
  now: number,
  secrets: RequestSecrets,
): Evidence {
  if (!target.avoidExtraUsage) return OK;
  const billed = extraUsageOf(headers);
  return billed?.billed === true ? extraUsageQuota(billed, headers, status, now, deps.extraUsageCooldownMs, secrets.strings) : OK;
}
