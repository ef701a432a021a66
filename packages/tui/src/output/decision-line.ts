import type { Attempt, AttemptOutcome, DecisionEvent } from '@routeplane/shared';
import { clipSegments, seg, segmentsText, type Segment, type Tone } from './segment.js';
import { fit, textWidth } from './text.js';
import { timeOfDay } from './time-words.js';

/**
 * One decision, one line — the one builder behind `top`'s log, `logs` and
 * the demo's log:
 *
 *   14:03:07 sonnet       200   812ms work-max 402 → personal-pro/claude-sonnet-5 ok
 *
 * time, route, status, latency, then the attempts as a path: each attempt
 * names its seat and outcome; the one whose response the agent got (and any
 * seat tried twice) is written `seat/model`; a probe attempt says `probe`.
 * With `everyModel` (what `logs` prints) every attempt is written
 * `seat/model`, and a line too wide cuts every long model alike, in its
 * middle, so no attempt loses its model while another keeps it:
 *
 *   14:03:07 sonnet       200   812ms work-max/claude…4-5 402 → personal-pro/claude…4-5 ok
 *
 * With `identity`, the client and the session it came from close the line
 * (`… ok · claude-cli/2.1.197 3f9a2c1b`).
 *
 * The result is toned segments: `top` paints them with its theme, the line
 * commands with chalk (./segment.ts).
 */
export interface DecisionLineOptions {
  /** the time column (default: local time of day) */
  time?: (ts: number) => string;
  /** columns of the route (longer names end in `…`) */
  routeWidth?: number;
  /** columns of the latency */
  latencyWidth?: number;
  /** the most columns the line may take: a path that does not fit names the server by seat, then the line is cut with `…` */
  width?: number;
  /** say `stream` after a streamed request */
  markStream?: boolean;
  /** write every attempt as `seat/model`, at any width */
  everyModel?: boolean;
  /** end with the client and the session's first 8 hex: `· claude-cli/2.1.197 3f9a2c1b` */
  identity?: boolean;
}

const OUTCOME_WORDS: Record<AttemptOutcome, (a: Attempt) => string> = {
  ok: () => 'ok',
  http_402: () => '402',
  http_429: () => '429',
  http_5xx: (a) => String(a.status ?? '5xx'),
  http_4xx: (a) => String(a.status ?? '4xx'),
  timeout: () => 'timeout',
  network: () => 'network',
  aborted: () => 'aborted',
  stream_error: () => 'stream error',
};

/** One attempt's outcome in a word or a status: `ok`, `402`, `503`, `timeout`. */
export function outcomeWord(attempt: Attempt): string {
  return OUTCOME_WORDS[attempt.outcome](attempt);
}

function outcomeTone(attempt: Attempt): Tone {
  switch (attempt.outcome) {
    case 'ok':
      return 'ok';
    case 'http_429':
    case 'http_4xx':
    case 'aborted':
      return 'warn';
    default:
      return 'bad';
  }
}

function statusTone(status: number): Tone {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 499) return 'muted';
  if (status >= 500) return 'bad';
  return 'warn';
}

/** How long a request took: `812ms`, and whole seconds past 100 s (`123s`). */
export function formatLatency(ms: number): string {
  return ms < 100_000 ? `${Math.round(ms)}ms` : `${Math.round(ms / 1000)}s`;
}

/** A decision that sent nothing upstream, in words. */
function whyNoAttempt(decision: DecisionEvent): string {
  if (decision.route === null) return 'no model in the request';
  if (decision.status === 404) return 'unknown route';
  if (decision.status === 499) return 'agent hung up before any attempt';
  if (decision.status === 400) return 'rejected: bad request';
  if (decision.skipped) return 'background request skipped: every target held back';
  return 'no upstream attempt';
}

/**
 * How each attempt is named: `seat`, or `seat/model` with the model shown
 * as `model(name)` writes it (whole, or cut).
 */
type AttemptName = (attempt: Attempt, index: number) => string;

/**
 * The default naming: the serving attempt (when `servedInFull`) and any
 * seat tried twice are `seat/model`, the others their seat alone; a narrow
 * line (`servedInFull: false`) writes `a 402 → b 429 → c ok` rather than
 * cutting `c/model` in half.
 */
function serverNames(decision: DecisionEvent, servedInFull: boolean): AttemptName {
  const seats = decision.attempts.map((a) => a.seat);
  return (attempt, i) => {
    const target = `${attempt.seat}/${attempt.model}`;
    const served = decision.served_by === target && i === decision.attempts.length - 1;
    const twice = seats.indexOf(attempt.seat) !== seats.lastIndexOf(attempt.seat);
    return (served && servedInFull) || twice ? target : attempt.seat;
  };
}

/** Every attempt as `seat/model`, each model in at most `modelWidth` columns. */
function everyModelNames(modelWidth: number): AttemptName {
  return (attempt) => `${attempt.seat}/${middleCut(attempt.model, modelWidth)}`;
}

/** `text` in at most `width` columns, cut in the middle (`claude…4-5`): a model's version is at its end. */
export function middleCut(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  const chars = Array.from(text);
  const room = Math.max(0, width - 1);
  const tailRoom = Math.ceil(room / 2);
  let tail = '';
  for (let i = chars.length - 1, used = 0; i >= 0; i--) {
    const w = textWidth(chars[i]!);
    if (used + w > tailRoom) break;
    tail = chars[i] + tail;
    used += w;
  }
  let head = '';
  for (let i = 0, used = 0; i < chars.length; i++) {
    const w = textWidth(chars[i]!);
    if (used + w > room - textWidth(tail)) break;
    head += chars[i];
    used += w;
  }
  return `${head}…${tail}`;
}

function pathSegments(decision: DecisionEvent, name: AttemptName): Segment[] {
  const { attempts } = decision;
  if (attempts.length === 0) return [seg(whyNoAttempt(decision), 'muted')];
  const probed = new Set(decision.chain.filter((c) => c.state === 'probe').map((c) => `${c.seat}/${c.model}`));
  const out: Segment[] = [];
  attempts.forEach((attempt, i) => {
    if (i > 0) out.push(seg(' → ', 'muted'));
    out.push(seg(name(attempt, i)));
    if (probed.has(`${attempt.seat}/${attempt.model}`)) out.push(seg(' probe', 'probe'));
    out.push(seg(' '), seg(outcomeWord(attempt), outcomeTone(attempt)));
  });
  return out;
}

/** The narrowest a model is cut to (`c…5`) before the line itself is cut. */
const MIN_MODEL_WIDTH = 3;

function marks(decision: DecisionEvent, options: DecisionLineOptions): Segment[] {
  const out: Segment[] = [];
  if (decision.fail_open) out.push(seg(' (fail-open)', 'warn'));
  if (options.markStream && decision.stream) out.push(seg(' stream', 'muted'));
  if (options.identity) {
    const who = [decision.client, decision.session?.slice(0, 8) ?? null].filter((w) => w !== null).join(' ');
    if (who !== '') out.push(seg(` · ${who}`, 'muted'));
  }
  return out;
}

export function decisionSegments(decision: DecisionEvent, options: DecisionLineOptions = {}): readonly Segment[] {
  const time = options.time ?? timeOfDay;
  const lead = [
    seg(time(decision.ts), 'muted'),
    seg(' '),
    seg(fit(decision.route ?? '—', options.routeWidth ?? 12), 'title'),
    seg(' '),
    seg(String(decision.status).padStart(3), statusTone(decision.status)),
    seg(' '),
    seg(formatLatency(decision.duration_ms).padStart(options.latencyWidth ?? 7), 'muted'),
    seg(' '),
  ];
  const tail = marks(decision, options);
  const width = options.width;
  const line = (name: AttemptName) => [...lead, ...pathSegments(decision, name), ...tail];
  const fits = (segments: readonly Segment[]) => width === undefined || textWidth(segmentsText(segments)) <= width;
  if (options.everyModel) {
    const longest = Math.max(0, ...decision.attempts.map((a) => textWidth(a.model)));
    const narrowest = Math.min(longest, MIN_MODEL_WIDTH);
    for (let modelWidth = longest; modelWidth > narrowest; modelWidth--) {
      const candidate = line(everyModelNames(modelWidth));
      if (fits(candidate)) return candidate;
    }
    const last = line(everyModelNames(narrowest));
    return width === undefined ? last : clipSegments(last, width);
  }
  const full = line(serverNames(decision, true));
  if (fits(full)) return full;
  return clipSegments(line(serverNames(decision, false)), width!);
}
