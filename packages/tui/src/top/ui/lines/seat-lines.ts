import { type Breaker, clockTime, formatDuration, signalWords, tripReason, type UsageWindow } from '@routeplane/shared';
import { seg, type Segment, type Tone } from '../../../output/segment.js';
import { distinctCuts, textWidth } from '../../../output/text.js';
import { tokenCount, tokensInOut } from '../../../output/token-count.js';
import type { SeatView } from '../../store/derive-view.js';
import { BUCKETS, type SeatActivity } from '../../store/seat-activity.js';
import { cell, clipLine, line, type Line } from './line.js';
import { EMPTY_BUCKET, sparkCells, sparkScale } from './sparkline.js';
import { breakerDetail, type CountdownClock, PHASE_STATE, REASON_WORD, STATE_GLYPH, staleMark } from './state-words.js';
import { bindingWindow, GAUGE_LEVELS, type GaugeLevel, gaugeText, gaugeTone, gaugeWidth } from './usage-gauge.js';

/**
 * The seats panel's rows: each seat, then one row per breaker the daemon
 * holds on it (whatever its kind). A seat's first row carries its activity
 * sparkline (last 2 minutes), its binding usage window as a gauge and, where
 * the width leaves room the detail does not need, the tokens its answers
 * reported (in and out); a model row's name runs on where a seat row has them:
 *
 *    seat-a  ··▁▂▃⣿⣿⣶⣤··  5h 62%   1.2M tok  ✗ credit      probe in 42s · failed again 3 · 400 credit balance is too low · login
 *    seat-b  ▃▅▇█⣿⣶▃▂▁··  5h 101%   48k tok  ✗ quota       resets 14:00 (in 2h14m) · 429 rate_limit_error
 *                                            ✗ rate-limit  ends in 8s
 *    └ claude-opus-4-1                       ◌ errors      probe ready · failed again 2
 *
 * Counts are named for what they count: `failed again` (answers that failed
 * while the breaker was already open, the daemon's refused_count) and
 * `skipped N background`. A seat row resets (or probes) the seat, a model
 * row that target.
 */
export interface SeatRow {
  readonly key: string;
  /** what `r` and `P` act on: the seat, or one target */
  readonly target: { readonly seat: string; readonly model?: string };
  readonly seat: string;
  readonly glyph: string;
  readonly name: string;
  readonly word: string;
  /** what to say after the word; the first part always (its short form when narrow), the others while they fit */
  readonly detail: readonly string[];
  /** the first part in fewer columns */
  readonly detailShort?: string;
  readonly tone: Tone;
  /** the seat's first row only: its binding usage window, and its attempts for the sparkline */
  readonly usage: UsageWindow | null;
  readonly activity: SeatActivity | null;
  /** the seat's first row only: tokens in and out so far; null when unknown (or not the first row) */
  readonly tokens?: number | null;
}

export interface SeatRowOptions {
  readonly clock: CountdownClock;
  readonly activity?: ReadonlyMap<string, SeatActivity>;
  /** a deadline as a time of day (default: the machine's zone) */
  readonly timeOfDay?: (at: number, now: number) => string;
}

export function localTimeOfDay(at: number, now: number): string {
  return clockTime(at, now, -new Date(at).getTimezoneOffset());
}

/** A seat nothing was seen on yet: every bucket empty, so its sparkline still spans the 2 minutes. */
const NO_ACTIVITY: SeatActivity = Array.from({ length: BUCKETS }, () => ({ ok: 0, failed: 0 }));

export function seatRows(seats: readonly SeatView[], options: SeatRowOptions): SeatRow[] {
  const rows: SeatRow[] = [];
  for (const seat of seats) {
    const seatTarget = { seat: seat.id };
    const seatWide = seat.breakers.filter((b) => b.scope === 'seat');
    // without an activity map (the one-shot printout) there is no sparkline at all
    const activity = options.activity ? (options.activity.get(seat.id) ?? NO_ACTIVITY) : null;
    // a seat that reported nothing shows nothing (not `0 tok`)
    const tokens = seat.tokens && tokensInOut(seat.tokens) > 0 ? tokensInOut(seat.tokens) : null;
    const first = { usage: bindingWindow(seat.usage), activity, tokens };
    const rest = { usage: null, activity: null, tokens: null };
    if (seatWide.length === 0) {
      rows.push({
        key: `seat:${seat.id}`,
        target: seatTarget,
        seat: seat.id,
        glyph: STATE_GLYPH.healthy,
        name: seat.id,
        word: 'healthy',
        detail: [seat.provider, ...seatMarks(seat)],
        tone: 'ok',
        ...first,
      });
    }
    seatWide.forEach((breaker, i) => {
      const described = describe(breaker, options);
      rows.push({
        // the first row keeps the seat's key, so a trip does not move the selection off the seat
        key: i === 0 ? `seat:${seat.id}` : `seat:${seat.id}:${breaker.key}`,
        target: seatTarget,
        seat: seat.id,
        name: i === 0 ? seat.id : '',
        ...described,
        // the seat's marks last, while they fit: what tripped it comes first
        ...(i === 0 ? { ...first, detail: [...described.detail, ...seatMarks(seat)] } : rest),
      });
    });
    const modelsSeen = new Set<string>();
    for (const breaker of seat.breakers) {
      if (breaker.scope === 'seat' || breaker.model === null) continue;
      const firstOfModel = !modelsSeen.has(breaker.model);
      modelsSeen.add(breaker.model);
      rows.push({
        key: firstOfModel ? `model:${seat.id}/${breaker.model}` : `model:${seat.id}/${breaker.model}:${breaker.key}`,
        target: { seat: seat.id, model: breaker.model },
        seat: seat.id,
        name: `└ ${breaker.model}`,
        ...describe(breaker, options),
        ...rest,
      });
    }
  }
  return rows;
}

/**
 * What kind of seat it is, where that matters to a person: `login` (the
 * agents' own login passes through), `no key` (a local server), and
 * `extra usage` while its plan bills past the plan.
 */
export function seatMarks(seat: Pick<SeatView, 'auth' | 'usage'>): string[] {
  const marks: string[] = [];
  if (seat.auth === 'passthrough') marks.push('login');
  if (seat.auth === 'none') marks.push('no key');
  if (seat.usage?.extra_usage === true) marks.push('extra usage');
  return marks;
}

function describe(breaker: Breaker, options: SeatRowOptions): Pick<SeatRow, 'glyph' | 'word' | 'detail' | 'detailShort' | 'tone'> {
  const state = PHASE_STATE[breaker.phase];
  const { clock } = options;
  const parts: string[] = [];
  let short: string | undefined;
  const reset = breaker.kind === 'quota' && breaker.phase === 'open' ? (breaker.reset_at ?? breaker.until) : null;
  if (reset !== null) {
    // a quota's reset is the provider's own statement: its time of day, and how long until it
    const time = (options.timeOfDay ?? localTimeOfDay)(reset, clock.now);
    parts.push(staleMark(`resets ${time} (in ${formatDuration(reset - clock.now)})`, clock));
    short = staleMark(`resets in ${formatDuration(reset - clock.now)}`, clock);
  } else {
    parts.push(breakerDetail(breaker.kind, breaker.phase, breaker.until, clock));
  }
  if (breaker.refused_count > 0) parts.push(`failed again ${breaker.refused_count}`);
  if (breaker.skipped_count > 0) parts.push(`skipped ${breaker.skipped_count} background`);
  if (breaker.failed_probes > 0) parts.push(`${breaker.failed_probes} failed probe${breaker.failed_probes === 1 ? '' : 's'}`);
  // what the provider said, when there is room for it
  if (breaker.signal) parts.push(signalWords(breaker.signal));
  return {
    glyph: STATE_GLYPH[state],
    word: REASON_WORD[tripReason(breaker.kind, breaker.scope)],
    detail: parts,
    ...(short === undefined ? {} : { detailShort: short }),
    // a rate limit heals by itself; the others need a probe
    tone: breaker.kind === 'rate_limit' ? 'warn' : state === 'tripped' ? 'bad' : 'probe',
  };
}

const NAME_MAX_SHARE = 0.4;
const PART_SEPARATOR = ' · ';
const GAP = 2;

/** The first part (its short form when the full one does not fit), then as many more as fit whole: a count is dropped, never cut. */
function fittingParts(row: SeatRow, room: number): string {
  const [firstPart = '', ...others] = row.detail;
  let out = textWidth(firstPart) <= room || row.detailShort === undefined ? firstPart : row.detailShort;
  for (const part of others) {
    const next = out + PART_SEPARATOR + part;
    if (textWidth(next) > room) break;
    out = next;
  }
  return out;
}

interface SeatLayout {
  /** the seats' names; a model row's `└ model` runs on over the sparkline and gauge, which it has none of */
  readonly nameW: number;
  /** name, sparkline and gauge together: where the state column starts */
  readonly leadW: number;
  readonly wordW: number;
  readonly sparkW: number;
  /** null: no seat reported usage, no gauge column */
  readonly gauge: { readonly level: GaugeLevel; readonly width: number } | null;
  /** the tokens column's width; 0: not shown */
  readonly tokensW: number;
  readonly detailRoom: number;
}

/** `1.2M tok` */
function tokensText(n: number): string {
  return `${tokenCount(n)} tok`;
}

/**
 * Columns for the rows at `width`: name, sparkline, gauge, tokens, state,
 * detail. The gauge takes the widest form that still leaves the detail's
 * first part its room (whole, else its short form), degrading full → short →
 * narrow; the tokens column comes last, in spare room only: where it drops
 * or shortens nothing the detail would show without it.
 */
function layout(rows: readonly SeatRow[], width: number, now: number): SeatLayout {
  const cols = { ...gaugeLayout(rows, width, now), tokensW: 0 };
  const tokensW = Math.max(0, ...rows.map((r) => (r.tokens == null ? 0 : textWidth(tokensText(r.tokens)))));
  if (tokensW === 0) return cols;
  const seatLead = cols.nameW + (cols.sparkW > 0 ? GAP + cols.sparkW : 0) + (cols.gauge ? GAP + cols.gauge.width : 0) + GAP + tokensW;
  const leadW = Math.max(cols.leadW, seatLead);
  const detailRoom = cols.detailRoom - (leadW - cols.leadW);
  const spare = rows.every((r) => {
    // the first part is said even when it does not fit (it is cut at the edge): that is no room to spare
    const shown = fittingParts(r, detailRoom);
    return shown === fittingParts(r, cols.detailRoom) && textWidth(shown) <= detailRoom;
  });
  return spare ? { ...cols, tokensW, leadW, detailRoom } : cols;
}

function gaugeLayout(rows: readonly SeatRow[], width: number, now: number): Omit<SeatLayout, 'tokensW'> {
  const seatRowsOnly = rows.filter((r) => !r.name.startsWith('└'));
  const nameW = Math.min(Math.max(0, ...seatRowsOnly.map((r) => textWidth(r.name))), Math.floor(width * NAME_MAX_SHARE));
  const wordW = Math.max(...rows.map((r) => textWidth(r.word)));
  const sparkW = Math.max(0, ...rows.map((r) => r.activity?.length ?? 0));
  const modelW = Math.max(0, ...rows.filter((r) => r.name.startsWith('└')).map((r) => textWidth(r.name)));
  const firstPart = Math.max(...rows.map((r) => textWidth(r.detail[0] ?? '')));
  const essential = Math.max(...rows.map((r) => textWidth(r.detailShort ?? r.detail[0] ?? '')));
  const windows = rows.map((r) => r.usage);
  const at = (gaugeW: number) => {
    const seatLead = nameW + (sparkW > 0 ? GAP + sparkW : 0) + (gaugeW > 0 ? GAP + gaugeW : 0);
    // model names may take what a seat row gives its sparkline and gauge, and a little more when they need it
    const leadW = Math.max(seatLead, Math.min(modelW, Math.floor(width * NAME_MAX_SHARE)));
    return { leadW, detailRoom: width - 1 - leadW - 1 - 2 - wordW - GAP };
  };
  if (windows.every((w) => w === null)) return { nameW, wordW, sparkW, gauge: null, ...at(0) };
  // the detail's first part whole beats a wider gauge; its short form beats the gauge only once the gauge is narrow
  for (const need of [firstPart, essential]) {
    for (const level of GAUGE_LEVELS) {
      const gw = gaugeWidth(windows, level, now);
      const fits = at(gw);
      if (fits.detailRoom >= need) return { nameW, wordW, sparkW, gauge: { level, width: gw }, ...fits };
    }
  }
  const narrow = gaugeWidth(windows, 'narrow', now);
  return { nameW, wordW, sparkW, gauge: { level: 'narrow', width: narrow }, ...at(narrow) };
}

export function seatLines(rows: readonly SeatRow[], options: { width: number; selectedKey: string | null; now: number }): Line[] {
  const { width, selectedKey, now } = options;
  if (rows.length === 0) return [];
  const cols = layout(rows, width, now);
  const seatNames = distinctCuts(
    rows.filter((r) => !r.name.startsWith('└')).map((r) => r.name),
    cols.nameW,
  );
  const modelNames = distinctCuts(
    rows.filter((r) => r.name.startsWith('└')).map((r) => r.name),
    cols.leadW,
  );
  const scale = sparkScale(rows.flatMap((r) => (r.activity ? [r.activity] : [])));
  return rows.map((row) => {
    const selected = row.key === selectedKey;
    const isModel = row.name.startsWith('└');
    const nameTone: Tone = selected ? 'selected' : isModel ? 'plain' : 'title';
    const segments: Segment[] = [seg(selected ? '›' : ' ', 'key')];
    if (isModel) {
      segments.push(...cell(modelNames.get(row.name) ?? row.name, cols.leadW, nameTone));
    } else {
      segments.push(...cell(seatNames.get(row.name) ?? row.name, cols.nameW, nameTone));
      let used = cols.nameW;
      if (cols.sparkW > 0) {
        segments.push(seg(' '.repeat(GAP)));
        for (const c of row.activity ? sparkCells(row.activity, scale) : []) {
          segments.push(seg(c.glyph, c.failed ? 'bad' : c.glyph === EMPTY_BUCKET ? 'muted' : 'ok'));
        }
        segments.push(seg(' '.repeat(cols.sparkW - (row.activity?.length ?? 0))));
        used += GAP + cols.sparkW;
      }
      if (cols.gauge) {
        const text = row.usage ? gaugeText(row.usage, cols.gauge.level, now) : '';
        segments.push(seg(' '.repeat(GAP)), seg(text, row.usage ? gaugeTone(row.usage) : 'plain'));
        used += GAP + textWidth(text);
      }
      if (cols.tokensW > 0) {
        // right-aligned under one another, after the gauge column's full width
        const text = row.tokens == null ? '' : tokensText(row.tokens);
        const gaugeEnd = cols.nameW + (cols.sparkW > 0 ? GAP + cols.sparkW : 0) + (cols.gauge ? GAP + cols.gauge.width : 0);
        const end = gaugeEnd + GAP + cols.tokensW;
        segments.push(seg(' '.repeat(Math.max(0, end - textWidth(text) - used))), seg(text, 'muted'));
        used = Math.max(used, end);
      }
      segments.push(seg(' '.repeat(Math.max(0, cols.leadW - used))));
    }
    segments.push(
      seg(' '),
      seg(`${row.glyph} `, row.tone),
      seg(row.word.padEnd(cols.wordW), row.tone),
      seg(' '.repeat(GAP)),
      seg(fittingParts(row, cols.detailRoom), row.word === 'healthy' ? 'muted' : 'plain'),
    );
    return clipLine(line(mergeRuns(segments), row.key), width);
  });
}

/** Neighbouring pieces of one tone as one piece: a sparkline is 24 glyphs, not 24 Ink nodes. */
function mergeRuns(segments: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out.at(-1);
    if (last && last.tone === s.tone) out[out.length - 1] = seg(last.text + s.text, s.tone);
    else out.push(s);
  }
  return out;
}
