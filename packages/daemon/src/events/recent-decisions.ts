import { type DecisionEvent, RECENT_MAX } from '@routeplane/shared';
import type { EventBus } from './bus.js';
import { jsonOf } from './event-line.js';
import { TextRing } from './text-ring.js';

/**
 * The daemon's last decisions, for a monitor that attaches later (`recent`)
 * and for `routeplane why` when the decision log is off: a fixed ring, so
 * memory does not grow with traffic. Kept as the bytes of their JSON text —
 * serialised once per event anyway, for the log and the subscribers
 * (event-line.ts). Held as objects, or even as one string each, the last 500
 * decisions outlived a scavenge or two and were promoted, every one of them,
 * so that each request left work for a full collection. Parsed back only
 * when asked for.
 */
export class RecentDecisions {
  private readonly ring = new TextRing(RECENT_MAX);
  private readonly unsubscribe: () => void;

  constructor(bus: EventBus) {
    this.unsubscribe = bus.subscribe((event) => {
      if (event.type === 'decision') this.ring.push(jsonOf(event));
    });
  }

  /** The last `n` decisions (all kept when omitted), oldest first. */
  last(n = RECENT_MAX): DecisionEvent[] {
    return this.ring.last(n).map((text) => JSON.parse(text) as DecisionEvent);
  }

  stop(): void {
    this.unsubscribe();
  }
}
