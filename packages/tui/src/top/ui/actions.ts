import { type Breaker, breakersNamedBy, isProbed } from '@routeplane/shared';
import type { Tone } from '../../output/segment.js';
import type { ProbeOutcome } from '../source/probe-request.js';
import type { ResetOutcome, ResetRequest } from '../source/reset-request.js';
import type { SeatView } from '../store/derive-view.js';

/**
 * The two things `top` asks the daemon to do — reset breakers, make them
 * probe-ready now — from the question before to the line after: what a
 * confirm names, whether there is anything to act on at all (`r` or `P` on a
 * row with nothing open says so and asks nothing), and the message line that
 * keeps what the last action did (`✓ reset seat-a: cleared 2 (credit,
 * rate_limit)`). Pure.
 */
export type ActionTarget = { readonly seat: string; readonly model?: string };

export type ConfirmAction =
  | { readonly kind: 'reset'; readonly request: ResetRequest; readonly kinds: readonly string[] }
  | { readonly kind: 'probe'; readonly target: ActionTarget; readonly kinds: readonly string[] };

export interface ActionMessage {
  readonly text: string;
  readonly tone: Tone;
}

export function targetWords(target: ActionTarget): string {
  return target.model === undefined ? target.seat : `${target.seat}/${target.model}`;
}

export function resetRequestOf(target: ActionTarget): ResetRequest {
  return target.model === undefined ? { scope: 'seat', seat: target.seat } : { scope: 'target', seat: target.seat, model: target.model };
}

function requestWords(request: ResetRequest): string {
  switch (request.scope) {
    case 'all':
      return 'all';
    case 'seat':
      return request.seat;
    case 'target':
      return `${request.seat}/${request.model}`;
  }
}

/** The breakers a reset or probe of `target` names: the daemon's own rule, over the seat's breakers as top holds them. */
export function breakersNamed(seats: readonly SeatView[], target: ActionTarget): Breaker[] {
  const seat = seats.find((s) => s.id === target.seat);
  return seat ? breakersNamedBy(seat.breakers, seat, target.model) : [];
}

/** The breaker kinds in the order people meet them, once each. */
function kindsOf(breakers: readonly Breaker[]): string[] {
  return [...new Set(breakers.map((b) => b.kind))].sort();
}

/** `r` on a row: the confirm to open, or why there is nothing to reset. */
export function planReset(target: ActionTarget, seats: readonly SeatView[]): ConfirmAction | ActionMessage {
  const named = breakersNamed(seats, target);
  if (named.length === 0) {
    const seatWide = target.model !== undefined && breakersNamed(seats, { seat: target.seat }).some((b) => b.scope === 'seat');
    return {
      text: seatWide
        ? `nothing to reset on ${targetWords(target)}: its trouble is seat-wide — select seat ${target.seat}`
        : `nothing to reset on ${targetWords(target)}: no breaker is open`,
      tone: 'warn',
    };
  }
  return { kind: 'reset', request: resetRequestOf(target), kinds: kindsOf(named) };
}

/** `R`: every breaker the daemon holds. */
export function planResetAll(seats: readonly SeatView[]): ConfirmAction {
  const all = new Map<string, Breaker>();
  for (const seat of seats) for (const b of seat.breakers) all.set(b.key, b);
  return { kind: 'reset', request: { scope: 'all' }, kinds: kindsOf([...all.values()]) };
}

/** `P` on a row: the confirm to open, or why there is nothing to probe. */
export function planProbe(target: ActionTarget, seats: readonly SeatView[]): ConfirmAction | ActionMessage {
  const named = breakersNamed(seats, target);
  const openProbed = named.filter((b) => b.phase === 'open' && isProbed(b.kind));
  if (openProbed.length > 0) return { kind: 'probe', target, kinds: kindsOf(openProbed) };
  const where = targetWords(target);
  if (named.some((b) => b.phase !== 'open'))
    return { text: `nothing to probe on ${where}: it is already probe-ready or probing`, tone: 'warn' };
  if (named.some((b) => b.kind === 'rate_limit')) {
    return { text: `nothing to probe on ${where}: a rate limit needs no probe, it ends by itself`, tone: 'warn' };
  }
  if (target.model !== undefined && breakersNamed(seats, { seat: target.seat }).some((b) => b.scope === 'seat')) {
    return { text: `nothing to probe on ${where}: its trouble is seat-wide — select seat ${target.seat}`, tone: 'warn' };
  }
  return { text: `nothing to probe on ${where}: no breaker is open`, tone: 'warn' };
}

export function isConfirm(plan: ConfirmAction | ActionMessage): plan is ConfirmAction {
  return 'kind' in plan;
}

/** The confirm's question: it names exactly what it acts on. */
export function confirmQuestion(action: ConfirmAction): string {
  if (action.kind === 'probe') {
    const what = action.target.model === undefined ? `seat ${action.target.seat}` : `target ${targetWords(action.target)}`;
    return `Make ${what} probe-ready now (${action.kinds.join(', ')})?`;
  }
  const { request } = action;
  switch (request.scope) {
    case 'all':
      return 'Reset EVERY breaker on every seat?';
    case 'seat':
      return `Reset seat ${request.seat} (every breaker on the seat and on its models)?`;
    case 'target':
      return `Reset target ${request.seat}/${request.model} (the breakers on this model)?`;
  }
}

/** What the confirm's `y` says it will do. */
export function confirmVerb(action: ConfirmAction): string {
  return action.kind === 'probe' ? 'yes, probe now' : 'yes, reset';
}

export function actionStarted(action: ConfirmAction): ActionMessage {
  return action.kind === 'probe'
    ? { text: `probing ${targetWords(action.target)}…`, tone: 'muted' }
    : { text: `resetting ${requestWords(action.request)}…`, tone: 'muted' };
}

export function actionCancelled(action: ConfirmAction): ActionMessage {
  const what = action.kind === 'probe' ? `probe ${targetWords(action.target)}` : `reset ${requestWords(action.request)}`;
  return { text: `${what} cancelled: nothing was changed`, tone: 'muted' };
}

export function resetDone(action: Extract<ConfirmAction, { kind: 'reset' }>, outcome: ResetOutcome): ActionMessage {
  const what = requestWords(action.request);
  if (outcome.ok) {
    const kinds = outcome.cleared > 0 && action.kinds.length > 0 ? ` (${action.kinds.join(', ')})` : '';
    return { text: `✓ reset ${what}: cleared ${outcome.cleared}${kinds}`, tone: 'ok' };
  }
  if (outcome.code === 'influence_disabled') return { text: 'routing influence is disabled (no breakers to reset)', tone: 'warn' };
  return { text: `✗ reset ${what} failed: ${outcome.message}`, tone: 'bad' };
}

export function probeDone(action: Extract<ConfirmAction, { kind: 'probe' }>, outcome: ProbeOutcome): ActionMessage {
  const what = targetWords(action.target);
  if (outcome.ok) {
    if (outcome.madeReady === 0) return { text: `probe ${what}: nothing was open any more (0 made probe-ready)`, tone: 'warn' };
    return { text: `✓ probe ${what}: ${outcome.madeReady} made probe-ready (${action.kinds.join(', ')})`, tone: 'ok' };
  }
  if (outcome.code === 'influence_disabled') return { text: 'routing influence is disabled (no breakers to probe)', tone: 'warn' };
  return { text: `✗ probe ${what} failed: ${outcome.message}`, tone: 'bad' };
}
