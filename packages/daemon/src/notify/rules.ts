import type { DaemonEvent, NotifyKind, StoreEvent, UsageEvent } from '@routeplane/shared';
import { extraUsageNotification, type Notification, notificationOf, type NotifyFacts, storeNotification } from './notification.js';

/** At most one notification per (kind, seat or route) in this long. */
export const NOTIFY_EVERY_MS = 5 * 60_000;
/** A command or webhook that keeps failing is said this often at most. */
export const FAILURE_SAID_EVERY_MS = 10 * 60_000;

/** Lets a key through once per `everyMs` (the first time at once). */
export class Debounce {
  private readonly last = new Map<string, number>();

  constructor(private readonly everyMs: number) {}

  /** True, and remembered, when `key` was not let through in the last `everyMs`. */
  pass(key: string, now: number): boolean {
    const last = this.last.get(key);
    if (last !== undefined && now - last < this.everyMs) return false;
    this.last.set(key, now);
    return true;
  }
}

/**
 * Which daemon event becomes a notification (notification.ts says with
 * which text), debounced: the kinds `notify.on` lists, at most one per
 * (kind, seat or route) per NOTIFY_EVERY_MS. It also follows what only a
 * sequence of events says: a seat's `extra_usage` turning true, the store
 * going degraded and coming back (its first `ok` at start is no news).
 * Pure and clock-injected: the notifier does the sending.
 */
export class NotificationRules {
  private readonly sent = new Debounce(NOTIFY_EVERY_MS);
  private readonly billedExtra = new Map<string, boolean>();
  private storeDegraded = false;

  constructor(private readonly now: () => number) {}

  decide(event: DaemonEvent, on: readonly NotifyKind[], facts: NotifyFacts): Notification | null {
    const found = this.notificationOf(event, facts);
    if (found === null || !on.includes(found.kind)) return null;
    // the store has no seat or route: each of its two news is a subject of its own
    const subject = found.seat ?? found.route ?? (event.type === 'store' ? event.store.state : '');
    return this.sent.pass(`${found.kind}\t${subject}`, this.now()) ? found : null;
  }

  private notificationOf(event: DaemonEvent, facts: NotifyFacts): Notification | null {
    switch (event.type) {
      case 'usage':
        return this.extraUsageBegan(event);
      case 'store':
        return this.storeChanged(event);
      default:
        return notificationOf(event, facts);
    }
  }

  private extraUsageBegan(event: UsageEvent): Notification | null {
    const billed = event.usage.extra_usage === true;
    const before = this.billedExtra.get(event.seat) ?? false;
    this.billedExtra.set(event.seat, billed);
    return billed && !before ? extraUsageNotification(event) : null;
  }

  private storeChanged(event: StoreEvent): Notification | null {
    const degraded = event.store.state === 'degraded';
    if (degraded === this.storeDegraded) return null;
    this.storeDegraded = degraded;
    return storeNotification(event);
  }
}
