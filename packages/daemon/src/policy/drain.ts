import type { SeatUsage, UsageWindow } from '@routeplane/shared';

/**
 * `balance: drain` (docs/seats.md): spend the usage window that resets
 * soonest first, since a subscription's window is use-it-or-lose-it. Each
 * seat's binding window is the fullest of those it reports with a reset
 * still ahead; targets whose binding window has headroom (utilization below
 * 1 − reserve_pct/100) come first, soonest reset first; then seats that
 * reported no window, then seats with no headroom, both in configured
 * order. A session stays on the seat that last served it while that seat
 * has headroom (the breaker still moves it back when it is tripped). Pure:
 * the usage and the time are handed in.
 */

export interface DrainInputs {
  /** the seat's last reported usage, or null */
  usageOf(seat: string): SeatUsage | null;
  reservePctOf(seat: string): number;
  now: number;
  /** the seat that last served this request's session, when it has one */
  stickySeat: string | null;
}

/** The window that will stop the seat first: the fullest with a reset ahead; null when none is known. */
export function drainWindow(usage: SeatUsage | null, now: number): UsageWindow | null {
  let binding: UsageWindow | null = null;
  for (const w of usage?.windows ?? []) {
    if (w.reset_at === null || w.reset_at <= now) continue;
    if (binding === null || w.utilization > binding.utilization) binding = w;
  }
  return binding;
}

type Standing = { kind: 'headroom'; resetAt: number } | { kind: 'unknown' } | { kind: 'full' };

function standing(inputs: DrainInputs, seat: string): Standing {
  const window = drainWindow(inputs.usageOf(seat), inputs.now);
  if (window === null) return { kind: 'unknown' };
  const line = 1 - inputs.reservePctOf(seat) / 100;
  return window.utilization < line ? { kind: 'headroom', resetAt: window.reset_at! } : { kind: 'full' };
}

/** `entries` (in configured order) in drain order. */
export function drainOrder<T extends { readonly keys: { readonly seat: string } }>(entries: readonly T[], inputs: DrainInputs): T[] {
  const headroom: Array<{ entry: T; resetAt: number }> = [];
  const unknown: T[] = [];
  const full: T[] = [];
  let sticky: T | null = null;
  for (const entry of entries) {
    const s = standing(inputs, entry.keys.seat);
    if (s.kind !== 'full' && sticky === null && entry.keys.seat === inputs.stickySeat) sticky = entry;
    else if (s.kind === 'headroom') headroom.push({ entry, resetAt: s.resetAt });
    else if (s.kind === 'unknown') unknown.push(entry);
    else full.push(entry);
  }
  // a stable sort: equal resets keep their configured order
  headroom.sort((a, b) => a.resetAt - b.resetAt);
  const ordered = [...headroom.map((h) => h.entry), ...unknown, ...full];
  return sticky === null ? ordered : [sticky, ...ordered];
}
