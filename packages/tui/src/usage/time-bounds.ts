/**
 * `--since` and `--until` of `routeplane usage`: a duration back from now
 * (`30m`, `24h`, `7d`) or a local date or time (`2026-11-30`,
 * `2026-11-30 14:02`; a date alone is 00:00 that day). Pure: `now` is given,
 * and dates are read in this machine's zone, as people wrote them.
 */
export type TimeBound = { ok: true; at: number } | { ok: false; message: string };

const DURATION = /^(\d+(?:\.\d+)?)(m|h|d)$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const TIME_BOUND_WORDS = 'a duration back from now (30m, 24h, 7d) or a local date or time (2026-11-30, "2026-11-30 14:02")';

export function parseTimeBound(text: string, now: number): TimeBound {
  const value = text.trim();
  const duration = DURATION.exec(value);
  if (duration !== null) return { ok: true, at: now - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS] };
  const date = DATE_TIME.exec(value);
  if (date !== null) {
    const [year, month, day, hour, minute] = date.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as number[];
    const at = new Date(year!, month! - 1, day!, hour!, minute!);
    // 2026-02-30 or 25:00 would roll over into another time: not what was written
    const same =
      at.getFullYear() === year &&
      at.getMonth() === month! - 1 &&
      at.getDate() === day &&
      at.getHours() === hour &&
      at.getMinutes() === minute;
    if (same) return { ok: true, at: at.getTime() };
    return { ok: false, message: `"${value}" is not a date or time that exists` };
  }
  return { ok: false, message: `expected ${TIME_BOUND_WORDS}, got "${value}"` };
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `2026-11-30` in this machine's zone: the `--by day` key. */
export function localDay(ts: number): string {
  const d = new Date(ts);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** `2026-11-30 14:02` in this machine's zone. */
export function localMinute(ts: number): string {
  const d = new Date(ts);
  return `${localDay(ts)} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}
