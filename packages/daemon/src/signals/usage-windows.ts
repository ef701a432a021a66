import type { UsageWindow } from '@routeplane/shared';
import { plainText } from './plain-text.js';
import { firstValue, type UpstreamHeaders } from './retry-after.js';
import { finiteMs, parseDuration, parseRfc3339, secondsToMs } from './time-values.js';

/**
 * The usage windows a provider reported on one answer, 2xx included — so this runs on every answer: it walks
 * the header names once, looks each up in a fixed table (one map lookup per
 * header, no regular expression), and allocates nothing when the answer
 * reports no window. Windows come out in a stable order (the table's, then
 * `7d_<family>` windows as they appear).
 *
 * A window needs a utilization (a fraction, possibly above 1): a window that
 * reports only a status or a reset is left out, since `UsageWindow` has no
 * "unknown" utilization and a made-up 0 would read as "plenty left" to the
 * background lanes' reserve.
 */
export function usageWindows(headers: UpstreamHeaders, now: number): UsageWindow[] {
  let found: Map<string, WindowReport> | null = null;
  for (const name in headers) {
    const c = name.charCodeAt(0);
    // every header read here starts with `a` or `x`: the rest cost one comparison
    if (c !== 0x61 && c !== 0x78) continue;
    const slot = SLOTS.get(name) ?? familySlot(name);
    if (slot === undefined) continue;
    const value = firstValue(headers[name]);
    if (value === undefined || value === '') continue;
    found ??= new Map();
    let report = found.get(slot.window);
    if (report === undefined) found.set(slot.window, (report = { source: slot.source, fields: {} }));
    report.fields[slot.field] = value;
  }
  if (found === null) return NO_WINDOWS;
  const windows: UsageWindow[] = [];
  for (const [window, report] of [...found].sort(byTableOrder)) {
    const built = BUILD[report.source](window, report.fields, now);
    if (built !== null) windows.push(built);
  }
  return windows;
}

/** Shared and frozen: the common answer reports nothing and must not allocate. */
const NO_WINDOWS: UsageWindow[] = Object.freeze([]) as unknown as UsageWindow[];

type Source = 'unified' | 'anthropic_api' | 'openai' | 'codex';
type Field = 'utilization' | 'reset' | 'status' | 'limit' | 'remaining' | 'used_percent' | 'window_minutes' | 'reset_after' | 'reset_at';

interface Slot {
  source: Source;
  /** the window's key while reading; for Codex `primary`/`secondary`, renamed once its length is known */
  window: string;
  field: Field;
}

interface WindowReport {
  source: Source;
  fields: Partial<Record<Field, string>>;
}

const UNIFIED = 'anthropic-ratelimit-unified-';
const UNIFIED_FAMILY = `${UNIFIED}7d_`;

function slotTable(): Map<string, Slot> {
  const slots = new Map<string, Slot>();
  for (const window of ['5h', '7d', 'overage']) {
    for (const field of ['utilization', 'reset', 'status'] as const) {
      slots.set(`${UNIFIED}${window}-${field}`, { source: 'unified', window, field });
    }
  }
  for (const window of ['requests', 'tokens']) {
    for (const field of ['limit', 'remaining', 'reset'] as const) {
      slots.set(`anthropic-ratelimit-${window}-${field}`, { source: 'anthropic_api', window, field });
      slots.set(field === 'reset' ? `x-ratelimit-reset-${window}` : `x-ratelimit-${field}-${window}`, { source: 'openai', window, field });
    }
  }
  for (const window of ['primary', 'secondary']) {
    slots.set(`x-codex-${window}-used-percent`, { source: 'codex', window, field: 'used_percent' });
    slots.set(`x-codex-${window}-window-minutes`, { source: 'codex', window, field: 'window_minutes' });
    slots.set(`x-codex-${window}-reset-after-seconds`, { source: 'codex', window, field: 'reset_after' });
    slots.set(`x-codex-${window}-reset-at`, { source: 'codex', window, field: 'reset_at' });
  }
  return slots;
}

const SLOTS = slotTable();
const WINDOW_ORDER = new Map([...new Set([...SLOTS.values()].map((s) => s.window))].map((w, i) => [w, i]));

/** `anthropic-ratelimit-unified-7d_<family>-{utilization,reset,status}`: a per-model weekly window. */
function familySlot(name: string): Slot | undefined {
  if (!name.startsWith(UNIFIED_FAMILY)) return undefined;
  const dash = name.lastIndexOf('-');
  const window = name.slice(UNIFIED.length, dash);
  const field = name.slice(dash + 1);
  if (window.length <= 3 || (field !== 'utilization' && field !== 'reset' && field !== 'status')) return undefined;
  return { source: 'unified', window, field };
}

function byTableOrder([a]: [string, WindowReport], [b]: [string, WindowReport]): number {
  return (WINDOW_ORDER.get(a) ?? WINDOW_ORDER.size) - (WINDOW_ORDER.get(b) ?? WINDOW_ORDER.size);
}

type Fields = Partial<Record<Field, string>>;

const BUILD: Record<Source, (window: string, fields: Fields, now: number) => UsageWindow | null> = {
  unified: (window, f) => made(window, fraction(f.utilization), f.reset === undefined ? null : secondsToMs(f.reset), f.status),
  anthropic_api: (window, f) =>
    made(window, usedShare(f.limit, f.remaining), f.reset === undefined ? null : parseRfc3339(f.reset), undefined),
  openai: (window, f, now) =>
    made(window, usedShare(f.limit, f.remaining), after(now, f.reset === undefined ? null : parseDuration(f.reset)), undefined),
  codex: (window, f, now) => {
    const percent = fraction(f.used_percent);
    const resetAt =
      f.reset_at !== undefined ? secondsToMs(f.reset_at) : after(now, f.reset_after === undefined ? null : secondsToMs(f.reset_after));
    return made(codexName(window, f.window_minutes), percent === null ? null : percent / 100, resetAt, undefined);
  },
};

function made(name: string, utilization: number | null, resetAt: number | null, status: string | undefined): UsageWindow | null {
  if (utilization === null) return null;
  // the status is the provider's word, shown on screens: short and free of control characters
  return { name, utilization, reset_at: resetAt, status: status === undefined ? null : plainText(status, [], 40) };
}

/** A non-negative decimal number, or null. */
function fraction(value: string | undefined): number | null {
  if (value === undefined || !/^\d+(?:\.\d+)?$/.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** 1 − remaining/limit, for limits that report counts (never below 0). */
function usedShare(limit: string | undefined, remaining: string | undefined): number | null {
  const l = fraction(limit);
  const r = fraction(remaining);
  if (l === null || r === null || l === 0) return null;
  // (limit − remaining) / limit: the same fraction, without 1 − 0.8 = 0.19999999999999996
  return Math.max(0, (l - r) / l);
}

/** 300 minutes is the 5-hour window, 10080 the weekly one; any other length keeps the header's word. */
function codexName(window: string, minutes: string | undefined): string {
  if (minutes === '300') return '5h';
  if (minutes === '10080') return '7d';
  return window;
}

function after(now: number, ms: number | null): number | null {
  return ms === null ? null : finiteMs(now + ms);
}
