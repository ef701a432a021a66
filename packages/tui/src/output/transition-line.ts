import { type BreakerEvent, type ReloadEvent, type StoreEvent, signalHeaderName, signalWords } from '@routeplane/shared';
import { kindWords, leftWords, localWallClock, subjectWords, type WallClock } from './breaker-words.js';
import { timeOfDay } from './time-words.js';

/**
 * What the daemon did, one line each — `serve`'s stderr and `logs -f`
 * between the decisions:
 *
 *   14:02:11 tripped credit seat-a (402 billing_error) probe in 60s
 *   14:02:40 probing credit seat-a
 *   14:02:41 cleared credit seat-a (probe succeeded)
 *   14:03:12 reset seat-a by control socket: cleared 2
 *   14:05:00 store redis degraded: routing goes on with this daemon's own breakers
 *
 * Pure: events in, text out; the time column and the wall clock a quota's
 * reset is shown in come from the caller. The coalesced `refused`/`skipped`
 * count events are not transitions and get no line.
 */
export type TransitionEvent = BreakerEvent | ReloadEvent | StoreEvent;

export interface TransitionOptions {
  /** the time column (default: local time of day) */
  readonly time?: (ts: number) => string;
  /** a deadline as a time of day (default: the local zone) */
  readonly wallClock?: WallClock;
  /** this daemon's id: a change another daemon made (shared store) says where it came from */
  readonly self?: string | null;
}

const ACTION_WORDS: Record<Exclude<BreakerEvent['action'], 'refused' | 'skipped'>, string> = {
  tripped: 'tripped',
  extended: 'extended',
  probe_ready: 'probe ready',
  probe_claimed: 'probing',
  probe_failed: 'probe failed',
  cleared: 'cleared',
  reset: 'reset',
};

/** A reason that only repeats the signal's status (`http_402 billing_error`, `probe failed: http_429 …`). */
const STATUS_REASON = /^(probe failed: )?http_\d/;

/** Why, in parentheses: the signal in words, the header that set its deadline, and the reason when the signal does not already say it. */
function detail(event: BreakerEvent): string {
  const parts: string[] = [];
  if (event.signal !== null) {
    parts.push(signalWords(event.signal));
    const header = signalHeaderName(event.signal);
    if (header !== null) parts.push(header);
  }
  const reason = event.reason.replace(/^probe failed: /, '');
  if (reason !== '' && (event.signal === null || !STATUS_REASON.test(event.reason))) parts.push(reason);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function fromElsewhere(event: BreakerEvent, options: TransitionOptions): string {
  return options.self != null && event.origin !== options.self ? ` (from ${event.origin})` : '';
}

/** `tripped credit seat-a (402 billing_error) probe in 60s`; null for a count event. */
export function breakerLine(event: BreakerEvent, options: TransitionOptions = {}): string | null {
  if (event.action === 'refused' || event.action === 'skipped') return null;
  const time = (options.time ?? timeOfDay)(event.ts);
  const what = `${ACTION_WORDS[event.action]} ${kindWords(event.key, event.seat)} ${subjectWords(event)}`;
  let line = `${time} ${what}`;
  switch (event.action) {
    case 'tripped':
    case 'extended':
    case 'probe_failed': {
      line += detail(event);
      const left = event.breaker === null ? null : leftWords(event.breaker, event.ts, options.wallClock ?? localWallClock);
      if (left !== null) line += ` ${left}`;
      if (event.action === 'probe_failed') line += ` (failed probes: ${event.failed_probes})`;
      break;
    }
    case 'probe_ready':
    case 'cleared':
    case 'reset':
      line += ` (${event.reason})`;
      break;
    case 'probe_claimed':
      break;
  }
  return line + fromElsewhere(event, options);
}

/**
 * A command a person gave (`breakers reset`, `breakers probe`, `r`/`P` in
 * `top`) lands as one event per breaker, back to back. Those events are
 * said in one line, as the person gave the command.
 */
export function isCommandEvent(event: BreakerEvent): boolean {
  return (event.action === 'reset' && event.reason === 'reset') || (event.action === 'probe_ready' && event.reason === 'probe now');
}

/** `next` belongs to the same command as `previous`: the very next event, the same action, from the same daemon. */
export function sameCommand(previous: BreakerEvent, next: BreakerEvent): boolean {
  return (
    isCommandEvent(previous) &&
    isCommandEvent(next) &&
    next.seq === previous.seq + 1 &&
    next.action === previous.action &&
    next.origin === previous.origin
  );
}

/** One seat (`seat-a`), one target (`seat-a/m`), or the seats named (`seat-a, seat-b and 2 more`). */
function commandSubject(events: readonly BreakerEvent[]): string {
  const seats = [...new Set(events.map((e) => e.seat))];
  const only = seats[0];
  if (seats.length === 1 && only != null) {
    const models = [...new Set(events.map((e) => e.model))];
    return models.length === 1 && models[0] != null ? `${only}/${models[0]}` : only;
  }
  const names = [...new Set(events.map((e) => (e.seat === null ? subjectWords(e) : e.seat)))];
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/** `reset seat-a by control socket: cleared 2`, `probe now seat-a by control socket: ready 1`. */
export function commandLine(events: readonly BreakerEvent[], options: TransitionOptions = {}): string {
  const first = events[0];
  if (first === undefined) return '';
  const time = (options.time ?? timeOfDay)(first.ts);
  const by = options.self != null && first.origin !== options.self ? `the control socket of ${first.origin}` : 'control socket';
  const [verb, result] = first.action === 'reset' ? ['reset', 'cleared'] : ['probe now', 'ready'];
  return `${time} ${verb} ${commandSubject(events)} by ${by}: ${result} ${events.length}`;
}

export function reloadLine(event: ReloadEvent, options: TransitionOptions = {}): string {
  const time = (options.time ?? timeOfDay)(event.ts);
  if (event.ok) return `${time} reloaded the config`;
  return `${time} reload refused, the daemon keeps its running config: ${event.errors.join('; ')}`;
}

export function storeLine(event: StoreEvent, options: TransitionOptions = {}): string {
  const time = (options.time ?? timeOfDay)(event.ts);
  const { kind, state, daemons } = event.store;
  if (state === 'degraded') return `${time} store ${kind} degraded: routing goes on with this daemon's own breakers`;
  return `${time} store ${kind} ok, ${daemons} daemon${daemons === 1 ? '' : 's'} sharing it`;
}

/** Any transition as its line; null for what is not one (a count event). */
export function transitionLine(event: TransitionEvent, options: TransitionOptions = {}): string | null {
  switch (event.type) {
    case 'breaker':
      return isCommandEvent(event) ? commandLine([event], options) : breakerLine(event, options);
    case 'reload':
      return reloadLine(event, options);
    case 'store':
      return storeLine(event, options);
  }
}
