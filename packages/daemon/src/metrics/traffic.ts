import type { BreakerEvent, DecisionEvent, SeatTokens } from '@routeplane/shared';

/**
 * What `/metrics` counts from the event stream, in plain maps: a decision
 * adds to a few counters, keyed by their label values joined with a tab.
 * prom-client reads these when it is scraped (metrics/registry.ts), so a
 * request pays a few map increments, not a metrics library's label hashing.
 */
export class TrafficCounts {
  /** route, family, lane, code class */
  readonly requests = new Map<string, number>();
  /** seat, model, evidence */
  readonly attempts = new Map<string, number>();
  /** route */
  readonly failovers = new Map<string, number>();
  readonly failOpen = new Map<string, number>();
  readonly backgroundSkipped = new Map<string, number>();
  /** seat, model, kind (input, output, cache_read, cache_write) */
  readonly tokens = new Map<string, number>();
  /** the same summed per seat, for `status` and `top` (kept as it goes: a snapshot reads it, not re-sums it) */
  private readonly seatTokens = new Map<string, SeatTokens>();
  /** seat, model, result (ok, failed, released) */
  readonly probes = new Map<string, number>();
  /** `key` of a breaker whose probe this daemon claimed → its seat and model labels */
  private readonly claimed = new Map<string, string>();

  /** `origin`: this daemon's id — counters are its own, not the team's (spec/shared-state.md) */
  constructor(private readonly origin: string) {}

  decision(d: DecisionEvent): void {
    const route = d.route ?? '';
    add(this.requests, `${route}\t${d.family}\t${d.lane}\t${codeClass(d.status)}`, 1);
    for (const a of d.attempts) add(this.attempts, `${a.seat}\t${a.model}\t${a.evidence ?? 'none'}`, 1);
    if (d.attempts.length > 1) add(this.failovers, route, distinctTargets(d) - 1);
    if (d.fail_open) add(this.failOpen, route, 1);
    if (d.skipped) add(this.backgroundSkipped, route, 1);
    if (d.usage !== null && d.served_by !== null) {
      const at = d.served_by.indexOf('/');
      const seat = d.served_by.slice(0, at);
      const target = `${seat}\t${d.served_by.slice(at + 1)}`;
      const u = d.usage;
      let sum = this.seatTokens.get(seat);
      if (sum === undefined) {
        sum = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
        this.seatTokens.set(seat, sum);
      }
      if (u.input_tokens !== null) {
        add(this.tokens, `${target}\tinput`, u.input_tokens);
        sum.input += u.input_tokens;
      }
      if (u.output_tokens !== null) {
        add(this.tokens, `${target}\toutput`, u.output_tokens);
        sum.output += u.output_tokens;
      }
      if (u.cache_read_tokens !== null) {
        add(this.tokens, `${target}\tcache_read`, u.cache_read_tokens);
        sum.cache_read += u.cache_read_tokens;
      }
      if (u.cache_write_tokens !== null) {
        add(this.tokens, `${target}\tcache_write`, u.cache_write_tokens);
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
    const labels = `${e.seat ?? ''}\t${e.model ?? ''}`;
    switch (e.action) {
      case 'probe_claimed':
        if (e.origin === this.origin) this.claimed.set(e.key, labels);
        return;
      case 'probe_failed':
        if (this.claimed.delete(e.key)) add(this.probes, `${labels}\tfailed`, 1);
        return;
      case 'cleared':
        if (this.claimed.delete(e.key)) add(this.probes, `${labels}\t${e.reason === 'probe succeeded' ? 'ok' : 'released'}`, 1);
        return;
      case 'probe_ready':
      case 'reset':
        if (this.claimed.delete(e.key)) add(this.probes, `${labels}\treleased`, 1);
        return;
      default:
        return;
    }
  }
}

function add(map: Map<string, number>, key: string, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** `2xx`, `4xx`, `5xx`, or `499` (the agent hung up). */
export function codeClass(status: number): string {
  if (status === 499) return '499';
  return `${Math.floor(status / 100)}xx`;
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
