import { type Breaker, tripReason } from '@routeplane/shared';
import { seg, type Tone } from '../../../output/segment.js';
import { textWidth } from '../../../output/text.js';
import type { ResetRequest } from '../../source/reset-request.js';
import type { SeatView } from '../../store/derive-view.js';
import { cell, clipLine, line, type Line } from './line.js';
import { breakerDetail, PHASE_STATE, REASON_WORD, STATE_GLYPH } from './state-words.js';

/**
 * The seats panel's rows: each seat, then one row per breaker the daemon
 * holds on it (whatever its kind), with what it refused:
 *
 *    personal          ● healthy          anthropic
 *    work-max          ✗ credit           probe in 42s · refused 3 · 1 failed probe
 *                      ✗ rate-limit       ends in 8s · refused 1
 *    └ claude-opus-4-1 ◌ errors           probe ready · refused 0
 *    └ claude-haiku-4  ✗ provider errors  probe in 9s · refused 2
 *
 * A seat row resets the seat (and its models); a model row resets that target.
 */
export interface SeatRow {
  readonly key: string;
  readonly reset: ResetRequest;
  readonly seat: string;
  readonly glyph: string;
  readonly name: string;
  readonly word: string;
  /** what to say after the word; the first part always, the others while they fit */
  readonly detail: readonly string[];
  readonly tone: Tone;
}

export function seatRows(seats: readonly SeatView[], now: number): SeatRow[] {
  const rows: SeatRow[] = [];
  for (const seat of seats) {
    const seatReset: ResetRequest = { scope: 'seat', seat: seat.id };
    const seatWide = seat.breakers.filter((b) => b.scope === 'seat');
    if (seatWide.length === 0) {
      rows.push({
        key: `seat:${seat.id}`,
        reset: seatReset,
        seat: seat.id,
        glyph: STATE_GLYPH.healthy,
        name: seat.id,
        word: 'healthy',
        detail: [seat.provider],
        tone: 'ok',
      });
    }
    seatWide.forEach((breaker, i) => {
      rows.push({
        // the first row keeps the seat's key, so a trip does not move the selection off the seat
        key: i === 0 ? `seat:${seat.id}` : `seat:${seat.id}:${breaker.key}`,
        reset: seatReset,
        seat: seat.id,
        name: i === 0 ? seat.id : '',
        ...describe(breaker, now),
      });
    });
    const modelsSeen = new Set<string>();
    for (const breaker of seat.breakers) {
      if (breaker.scope === 'seat' || breaker.model === null) continue;
      const first = !modelsSeen.has(breaker.model);
      modelsSeen.add(breaker.model);
      rows.push({
        key: first ? `model:${seat.id}/${breaker.model}` : `model:${seat.id}/${breaker.model}:${breaker.key}`,
        reset: { scope: 'target', seat: seat.id, model: breaker.model },
        seat: seat.id,
        name: `└ ${breaker.model}`,
        ...describe(breaker, now),
      });
    }
  }
  return rows;
}

function describe(breaker: Breaker, now: number): Pick<SeatRow, 'glyph' | 'word' | 'detail' | 'tone'> {
  const state = PHASE_STATE[breaker.phase];
  const parts = [breakerDetail(breaker.kind, breaker.phase, breaker.until, now), `refused ${breaker.refused_count}`];
  if (breaker.failed_probes > 0) parts.push(`${breaker.failed_probes} failed probe${breaker.failed_probes === 1 ? '' : 's'}`);
  return {
    glyph: STATE_GLYPH[state],
    word: REASON_WORD[tripReason(breaker.kind, breaker.scope)],
    detail: parts,
    // a rate limit heals by itself; the others need a probe
    tone: breaker.kind === 'rate_limit' ? 'warn' : state === 'tripped' ? 'bad' : 'probe',
  };
}

const NAME_MAX_SHARE = 0.4;
const PART_SEPARATOR = ' · ';

/** The first part, then as many more as fit whole: a count is dropped, never cut. */
function fittingParts(parts: readonly string[], room: number): string {
  let out = parts[0] ?? '';
  for (const part of parts.slice(1)) {
    const next = out + PART_SEPARATOR + part;
    if (textWidth(next) > room) break;
    out = next;
  }
  return out;
}

export function seatLines(rows: readonly SeatRow[], options: { width: number; selectedKey: string | null }): Line[] {
  const { width, selectedKey } = options;
  if (rows.length === 0) return [];
  const nameW = Math.min(Math.max(...rows.map((r) => textWidth(r.name))), Math.floor(width * NAME_MAX_SHARE));
  const wordW = Math.max(...rows.map((r) => textWidth(r.word)));
  return rows.map((row) => {
    const selected = row.key === selectedKey;
    const nameTone: Tone = selected ? 'selected' : row.name.startsWith('└') ? 'plain' : 'title';
    return clipLine(
      line(
        [
          seg(selected ? '›' : ' ', 'key'),
          ...cell(row.name, nameW, nameTone),
          seg(' '),
          seg(`${row.glyph} `, row.tone),
          seg(row.word.padEnd(wordW), row.tone),
          seg('  '),
          seg(fittingParts(row.detail, width - 1 - nameW - 1 - 2 - wordW - 2), row.word === 'healthy' ? 'muted' : 'plain'),
        ],
        row.key,
      ),
      width,
    );
  });
}
