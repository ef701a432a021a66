/** Durations and times as the monitor writes them. Pure. */

/** A countdown to `deadline`: `42s`, `3m05s`, `1h02m`; `0s` once it passed. */
export function formatCountdown(deadline: number, now: number): string {
  return formatSeconds(Math.max(0, Math.ceil((deadline - now) / 1000)));
}

/** Whole seconds as `42s`, `3m05s`, `1h02m`, `2d03h`. */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.floor(total));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${pad2(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${pad2(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d${pad2(Math.floor((s % 86_400) / 3600))}h`;
}

/** Wall-clock time of an event, local time: `14:03:07`. */
export function formatClock(ts: number): string {
  const d = new Date(ts);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** A rate with one decimal below 10 and none above: `0.4`, `12`. */
export function formatRate(value: number): string {
  if (value === 0) return '0';
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
