import type { BreakerEvent, DecisionEvent, SeatTokens } from '@routeplane/shared';
import { CountTree } from './count-tree.js';

/**
 * What `/metrics` counts from the event stream, in plain maps: a decision
 * adds to a few counters under the label values it already carries (nested
 * maps, count-tree.ts: no key string is built per request). prom-client
 * reads these when it is scraped (metrics/registry.ts), so a request pays a
 * few map lookups, not a metrics library's label hashing.
 */
export class TrafficCounts {
  /** route, family, lane, code class */
  readonly requests = new CountTree(4);
  /** seat, model, evidence */
  readonly attempts = new CountTree(3);
  /** route */
  readonly failovers = new CountTree(1);
  readonly failOpen = new CountTree(1);
  readonly backgroundSkipped = new CountTree(1);
  /** served target (`seat/model`, split in two labels when scraped), kind (input, output, cache_read, cache_write) */
  readonly tokens = new CountTree(2);
  /** seat, model, result (ok, failed, released) */
  readonly probes = new CountTree(3);
  /** the same summed per seat, for `status` and `top` (kept as it goes: a snapshot reads it, not re-sums it) */
  private readonly seatTokens = new Map<string, SeatTokens>();
  /** `key` of a breaker whose probe this daemon claimed → its seat and model labels */
  private readonly claimed = new Map<string, { seat: string; model: string }>();

  /** `origin`: this daemon's id — counters are its own, not the team's */
  constructor(private readonly origin: string) {}

  decision(d: DecisionEvent): void {
    const route = d.route ?? '';
    this.requests.add(1, route, d.family, d.lane, codeClass(d.status));
    for (const a of d.attempts) this.attempts.add(1, a.seat, a.model, a.evidence ?? 'none');
    if (d.attempts.length > 1) this.failovers.add(distinctTargets(d) - 1, route);
    if (d.fail_open) this.failOpen.add(1, route);
    if (d.skipped) this.backgroundSkipped.add(1, route);
    if (d.usage !== null && d.served_by !== null) {
      const u = d.usage;
      const target = d.served_by;
      const seat = target.slice(0, target.indexOf('/'));
      let sum = this.seatTokens.get(seat);
      if (sum === undefined) {
        sum = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
        this.seatTokens.set(seat, sum);
      }
      if (u.input_tokens !== null) {
        this.tokens.add(u.input_tokens, target, 'input');
        sum.input += u.input_tokens;
      }
      if (u.output_tokens !== null) {
        this.tokens.add(u.output_tokens, target, 'output');
        sum.output += u.output_tokens;
      }
      if (u.cache_read_tokens !== null) {
        this.tokens.add(u.cache_read_tokens, target, 'cache_read');
        sum.cache_read += u.cache_read_tokens;
      }
      if (u.cache_write_tokens !== null) {
        this.tokens.add(u.cache_write_tokens, target, 'cache_write');
        sum.cache_write += u.cache_write_tokens;
      }
    }
  }

  /** A seat's tokens so far (a copy: the tally keeps moving); zeros for a seat that reported none. */
  tokensOf(seat: string): SeatTokens {
    const sum = this.seatTokens.get(seat);
    return sum === undefined ? { input: 0, output: 0, cache_read: 0, cache_write: 0 } : { ...sum };
  }

  /**
   * Probe outcomes, from the breaker events: claimed, then cleared (ok),
   * failed, or released. Only this daemon's own claims count: another
   * daemon's probe arrives here as its claim and outcome too, and is counted
   * there. Whatever ends a claim of ours counts, wherever it came from (a
   * reset given to another daemon releases it).
   */
  breaker(e: BreakerEvent): void {
    const claimed = this.claimed.get(e.key);
    switch (e.action) {
      case 'probe_claimed':
        if (e.origin === this.origin) this.claimed.set(e.key, { seat: e.seat ?? '', model: e.model ?? '' });
        return;
      case 'probe_failed':
        if (claimed && this.claimed.delete(e.key)) this.probes.add(1, claimed.seat, claimed.model, 'failed');
        return;
      case 'cleared':
        if (claimed && this.claimed.delete(e.key))
          this.probes.add(1, claimed.seat, claimed.model, e.reason === 'probe succeeded' ? 'ok' : 'released');
        return;
      case 'probe_ready':
      case 'reset':
        if (claimed && this.claimed.delete(e.key)) this.probes.add(1, claimed.seat, claimed.model, 'released');
        return;
      default:
        return;
    }
  }
}

/** The `seat` and `model` labels of a served target, `seat/model` (a seat id holds no `/`). */
export function targetLabels(servedBy: string): [string, string] {
  const at = servedBy.indexOf('/');
  return [servedBy.slice(0, at), servedBy.slice(at + 1)];
}

const CODE_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

/** `2xx`, `4xx`, `5xx`, or `499` (the agent hung up). */
export function codeClass(status: number): string {
  if (status === 499) return '499';
  const hundreds = Math.floor(status / 100);
  return CODE_CLASSES[hundreds] ?? `${hundreds}xx`;
}

/** Retries of one target are not fail-overs: count the targets tried. */
function distinctTargets(d: DecisionEvent): number {
  let n = 0;
  let last = '';
  for (const a of d.attempts) {
    const label = `${a.seat}/${a.model}`;
    if (label !== last) n++;
    last = label;
  }
  return n;
}
