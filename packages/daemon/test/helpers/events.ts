/**
 * Waiting for daemon events instead of sleeping.
 *
 * `EventRecorder` subscribes to the bus at once and keeps every event, so a
 * test can start a request and only then ask for its decision without racing
 * the bus. `take` hands out each matching event once, in order.
 *
 *   const events = new EventRecorder(daemon.context.bus);
 *   await fetch(...);
 *   const decision = await events.nextDecision();
 *   await events.take(isBreaker('probe_ready'));
 */
import type { BreakerAction, BreakerEvent, DaemonEvent, DecisionEvent } from '@routeplane/shared';
import type { EventBus } from '../../src/events/bus.js';

export type EventPredicate<T extends DaemonEvent> = (event: DaemonEvent) => event is T;

export const isDecision: EventPredicate<DecisionEvent> = (e): e is DecisionEvent => e.type === 'decision';

export function isBreaker(action?: BreakerAction, seat?: string): EventPredicate<BreakerEvent> {
  return (e): e is BreakerEvent =>
    e.type === 'breaker' && (action === undefined || e.action === action) && (seat === undefined || e.seat === seat);
}

const DEFAULT_WAIT_MS = 15_000;

export class EventRecorder {
  /** every event seen since construction, in order */
  readonly events: DaemonEvent[] = [];
  private readonly taken = new Set<number>();
  private waiters: Array<() => void> = [];
  private readonly unsubscribe: () => void;

  constructor(bus: EventBus) {
    this.unsubscribe = bus.subscribe((event) => {
      this.events.push(event);
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    });
  }

  /** The first matching event not taken before, waiting for it if needed; rejects after `timeoutMs`. */
  async take<T extends DaemonEvent>(predicate: EventPredicate<T>, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = 0; i < this.events.length; i++) {
        const event = this.events[i]!;
        if (!this.taken.has(i) && predicate(event)) {
          this.taken.add(i);
          return event;
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms (seen: ${this.events.map(describe).join(', ') || 'none'})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** the next decision event not taken before */
  nextDecision(timeoutMs?: number): Promise<DecisionEvent> {
    return this.take(isDecision, timeoutMs);
  }

  /** events of one kind seen so far (taken or not) */
  all<T extends DaemonEvent>(predicate: EventPredicate<T>): T[] {
    return this.events.filter(predicate);
  }

  stop(): void {
    this.unsubscribe();
  }
}

/** Resolves with the next future event matching `predicate` on `bus` (subscribe before acting). */
export function nextEvent<T extends DaemonEvent>(bus: EventBus, predicate: EventPredicate<T>, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no matching event within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = bus.subscribe((event) => {
      if (!predicate(event)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

/** the next decision event on `bus` (subscribe before acting) */
export function nextDecision(bus: EventBus, timeoutMs?: number): Promise<DecisionEvent> {
  return nextEvent(bus, isDecision, timeoutMs);
}

function describe(event: DaemonEvent): string {
  switch (event.type) {
    case 'decision':
      return `decision(${event.status})`;
    case 'breaker':
      return `breaker(${event.action} ${event.key})`;
    default:
      return event.type;
  }
}
