import {
  type BreakerKind,
  type BreakerPhase,
  clockTime,
  formatDuration,
  type Signal,
  signalHeaderName,
  signalWords,
} from '@routeplane/shared';

/**
 * A breaker in words, for the line printers (`status`, `serve`, `logs -f`):
 * what kind it is, what it covers, and how long it has left —
 * `probe in 41s` for a cooldown, `ends in 3s` for a rate limit,
 * `quota until 14:00 (in 2h14m)` for a quota (`top` says the same). Pure: the wall clock a quota's reset is shown in comes
 * from the caller.
 */

const KIND_WORDS: Record<BreakerKind, string> = {
  credit: 'credit',
  quota: 'quota',
  rate_limit: 'rate limit',
  errors: 'errors',
  key_rejected: 'key rejected',
};

/** The kind a breaker key names (`credit:seat-a` → credit); the key is there even when the breaker ended. */
export function kindOfKey(key: string): BreakerKind | null {
  const kind = key.slice(0, key.indexOf(':'));
  return kind in KIND_WORDS ? (kind as BreakerKind) : null;
}

/** `credit`, `rate limit`, `errors`, `key rejected`; `provider errors` for an upstream-wide one. */
export function kindWords(key: string, seat: string | null): string {
  const kind = kindOfKey(key);
  if (kind === null) return key.slice(0, Math.max(0, key.indexOf(':')));
  return kind === 'errors' && seat === null ? 'provider errors' : KIND_WORDS[kind];
}

/** What it covers: `seat-a`, `seat-a/claude-sonnet-5`, or `https://api.anthropic.com/claude-sonnet-5` for a provider. */
export function subjectWords(b: { key: string; seat: string | null; model: string | null }): string {
  if (b.seat === null) return b.key.replace(/^[a-z_]+:provider:/, '');
  return b.model === null ? b.seat : `${b.seat}/${b.model}`;
}

/** The wall-clock time a deadline is shown at, given now (e.g. `clockTime` in the local zone). */
export type WallClock = (at: number, now: number) => string;

/** `clockTime` in this machine's zone: `14:00`, or `Dec 6 14:00` a day or more away. */
export const localWallClock: WallClock = (at, now) => clockTime(at, now, -new Date(at).getTimezoneOffset());

export interface LeftOf {
  key: string;
  seat: string | null;
  phase: BreakerPhase;
  until: number | null;
}

/**
 * How long a breaker has left, from `now`: `probe in 41s`, `ends in 3s`,
 * `quota until 14:00 (in 2h14m)`; past its time, `probe ready`, `probing`
 * or (a rate limit about to end) `ending`. Null when there is nothing to count to.
 */
export function leftWords(b: LeftOf, now: number, wallClock: WallClock = localWallClock): string | null {
  const kind = kindOfKey(b.key);
  if (b.phase === 'probing') return 'probing';
  if (b.until === null) return b.phase === 'probe_ready' ? 'probe ready' : null;
  const left = b.until - now;
  if (kind === 'rate_limit') return left > 0 ? `ends in ${formatDuration(left)}` : 'ending';
  if (b.phase === 'probe_ready' || left <= 0) return 'probe ready';
  if (kind === 'quota') return `quota until ${wallClock(b.until, now)} (in ${formatDuration(left)})`;
  return `probe in ${formatDuration(left)}`;
}

/** The signal in words with the header that set its deadline: `429 rate_limit_error (anthropic-ratelimit-unified-reset)`. */
export function signalDetail(signal: Signal): string {
  const header = signalHeaderName(signal);
  const words = signalWords(signal);
  return header === null ? words : `${words} (${header})`;
}

/** The counts a breaker keeps, named for what they count: `failed again 3`, `skipped 4 background`. */
export function countWords(b: { refused_count: number; skipped_count: number }): string[] {
  const out: string[] = [];
  if (b.refused_count > 0) out.push(`failed again ${b.refused_count}`);
  if (b.skipped_count > 0) out.push(`skipped ${b.skipped_count} background`);
  return out;
}
