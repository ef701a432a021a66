import type { DaemonEvent, DecisionEvent, NotifyKind, SeatUsage, StoreEvent, UsageEvent } from '@routeplane/shared';
import { breakerNotification } from './breaker-notification.js';

/**
 * Which daemon event is which notification, and its text — pure: an event
 * and a few facts in, a notification (or none) out. The text reads like
 * `serve`'s transition lines:
 *
 *   seat max-1 spent its 5h window (quota) — resets 16:00 (in 2h14m); requests go to max-2
 *   seat api-1 ran out of credit (400 credit balance is too low) — probe in 1m00s; requests go to max-2
 *   seat max-1 is back: quota cleared (probe succeeded)
 *   route sonnet failed open: every target is held back, so requests go to them in configured order
 *
 * Only what a person should hear of while nobody watches `top`: a seat or
 * target tripped for credit, quota or a rejected key, and its recovery by a
 * success or a probe (a reset or a reload is somebody's own doing); a
 * request that failed open; a seat that began billing extra usage; the
 * shared store going degraded or coming back. Rate limits and model errors
 * heal by themselves and never notify.
 */
export interface Notification {
  kind: NotifyKind;
  /** one line, never a credential */
  text: string;
  seat: string | null;
  model: string | null;
  route: string | null;
  /** when what tripped may be tried again (probe-ready time, or the quota's reset); null otherwise */
  until: number | null;
  ts: number;
}

/** What the text needs to know beyond the event. */
export interface NotifyFacts {
  /**
   * This daemon's id: a breaker change another daemon made (a shared store)
   * is that daemon's to notify, so a team with one config says each once.
   */
  readonly self: string;
  /**
   * Where the requests of the routes that use `seat` (or only `seat/model`)
   * go now: the first healthy other target of each such route, by seat (or
   * `seat/model` on the same seat); `[]` when none is healthy; null when no
   * route uses it.
   */
  goesTo(seat: string, model: string | null): string[] | null;
  /** the seat's usage windows as the provider last reported them */
  usageOf(seat: string): SeatUsage | null;
  /** a deadline as people read it: `16:00`, `Dec 6 14:00` */
  wallClock(at: number, now: number): string;
}

export function notificationOf(event: DaemonEvent, facts: NotifyFacts): Notification | null {
  switch (event.type) {
    case 'breaker':
      return breakerNotification(event, facts);
    case 'decision':
      return failOpen(event);
    case 'usage':
      return null; // what a usage event says is a change, which only the rules can see (extraUsageBegan)
    case 'store':
      return null; // likewise (storeNotification)
    case 'reload':
      return null;
  }
}

function failOpen(decision: DecisionEvent): Notification | null {
  if (!decision.fail_open || decision.route === null) return null;
  return {
    kind: 'fail_open',
    text: `route ${decision.route} failed open: every target is held back, so requests go to them in configured order`,
    seat: null,
    model: null,
    route: decision.route,
    until: null,
    ts: decision.ts,
  };
}

/** A seat whose answers began to be billed as extra usage: `usage.extra_usage` turned true. */
export function extraUsageNotification(event: UsageEvent): Notification {
  return {
    kind: 'extra_usage',
    text: `seat ${event.seat} began billing extra usage: its answers are paid for past the plan's window`,
    seat: event.seat,
    model: null,
    route: null,
    until: null,
    ts: event.ts,
  };
}

export function storeNotification(event: StoreEvent): Notification {
  const { kind, state, daemons } = event.store;
  const text =
    state === 'degraded'
      ? `shared store ${kind} degraded: routing goes on with this daemon's own breakers`
      : `shared store ${kind} is back: ${daemons} daemon${daemons === 1 ? '' : 's'} share it`;
  return { kind: 'store', text, seat: null, model: null, route: null, until: null, ts: event.ts };
}
