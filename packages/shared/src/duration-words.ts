/**
 * A duration as people read it everywhere Routeplane shows one — `top`'s
 * countdowns, `status`, `logs`, the `x-routeplane-decision` header, `why`:
 * `41s`, `3m05s`, `1h01m`, `2d03h`. Countdowns round up (a countdown shows
 * `1s` until its deadline has really passed); the decision header rounds
 * down (`quota, 2h14m` while 2h14m59s are left).
 */
export function formatDuration(ms: number, rounding: 'up' | 'down' = 'up'): string {
  const seconds = Number.isFinite(ms) ? Math.max(0, rounding === 'up' ? Math.ceil(ms / 1000) : Math.floor(ms / 1000)) : 0;
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${pad2(seconds % 60)}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h${pad2(minutes % 60)}m`;
  return `${Math.floor(hours / 24)}d${pad2(hours % 24)}h`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
