import { type DecisionEvent, RECENT_MAX } from '@routeplane/shared';
import type { EventBus } from './bus.js';
import { jsonOf } from './event-line.js';

/**
 * The daemon's last decisions, for a monitor that attaches later (`recent`)
 * and for `routeplane why` when the decision log is off: a fixed ring, so
 * memory does not grow with traffic. Kept as their JSON text — the same text
 * the decision log and the subscribers write, serialised once per event
 * (event-line.ts) — not as the event objects: 500 decisions held as object
 * graphs past their requests were copied by every scavenge, a visible share of
 * a small request; a string is one flat object. Parsed back only when asked for.
 */
export class RecentDecisions {
  private readonly ring: (string | undefined)[] = new Array(RECENT_MAX);
  private next = 0;
  private count = 0;
  private readonly unsubscribe: () => void;

  constructor(bus: EventBus) {
    this.unsubscribe = bus.subscribe((event) => {
      if (event.type !== 'decision') return;
      this.ring[this.next] = jsonOf(event);
      this.next = (this.next + 1) % RECENT_MAX;
      if (this.count < RECENT_MAX) this.count++;
    });
  }

  /** The last `n` decisions (all kept when omitted), oldest first. */
  last(n = RECENT_MAX): DecisionEvent[] {
    const take = Math.min(n, this.count);
    const out: DecisionEvent[] = [];
    for (let i = take; i > 0; i--) out.push(JSON.parse(this.ring[(this.next - i + RECENT_MAX) % RECENT_MAX]!) as DecisionEvent);
    return out;
  }

  stop(): void {
    this.unsubscribe();
  }
}
