import type { SeatBreakerView, SeatView } from '../../store/derive-view.js';
import type { ResetRequest } from '../../source/reset-request.js';
import { textWidth } from '../text.js';
import type { Tone } from '../theme.js';
import { cell, clipLine, line, seg, type Line } from './line.js';
import { PHASE_GLYPH, phaseDetail, REASON_WORD } from './state-words.js';

/**
 * The seats panel's rows: each seat, then one row per breaker it holds, with
 * what it refused:
 *
 *    personal          ● healthy  anthropic
 *    work-max          ✗ credit   probe in 42s · refused 3 · 1 failed probe
 *    └ claude-opus-4-1 ◌ errors   probe ready · refused 0
 *    └ claude-haiku-4  · streak   2 of 3 errors in a row
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

export function seatRows(seats: readonly SeatView[], now: number, tripThreshold: number): SeatRow[] {
  const rows: SeatRow[] = [];
  for (const seat of seats) {
    const seatReset: ResetRequest = { scope: 'seat', seat: seat.id };
    const seatWide = seat.breakers.filter((b) => b.kind === 'credit' || b.kind === 'rate_limit');
    if (seatWide.length === 0) {
      rows.push({
        key: `seat:${seat.id}`,
        reset: seatReset,
        seat: seat.id,
        glyph: PHASE_GLYPH.healthy,
        name: seat.id,
        word: 'healthy',
        detail: [seat.provider],
        tone: 'ok',
      });
    }
    seatWide.forEach((breaker, i) => {
      rows.push({
        key: i === 0 ? `seat:${seat.id}` : `seat:${seat.id}:${breaker.kind}`,
        reset: seatReset,
        seat: seat.id,
        name: i === 0 ? seat.id : '',
        ...describe(breaker, now, tripThreshold),
      });
    });
    for (const breaker of seat.breakers) {
      if (breaker.kind !== 'model_errors' && breaker.kind !== 'streak') continue;
      rows.push({
        key: `model:${seat.id}/${breaker.model}`,
        reset: { scope: 'target', seat: seat.id, model: breaker.model },
        seat: seat.id,
        name: `└ ${breaker.model}`,
        ...describe(breaker, now, tripThreshold),
      });
    }
  }
  return rows;
}

function describe(breaker: SeatBreakerView, now: number, tripThreshold: number): Pick<SeatRow, 'glyph' | 'word' | 'detail' | 'tone'> {
  switch (breaker.kind) {
    case 'credit':
    case 'model_errors': {
      const parts = [phaseDetail(breaker.phase, breaker.deadline, 'probe', now), `refused ${breaker.refused}`];
      if (breaker.failedProbes > 0) parts.push(`${breaker.failedProbes} failed probe${breaker.failedProbes === 1 ? '' : 's'}`);
      return {
        glyph: PHASE_GLYPH[breaker.phase],
        word: REASON_WORD[breaker.kind],
        detail: parts,
        tone: breaker.phase === 'tripped' ? 'bad' : 'probe',
      };
    }
    case 'rate_limit':
      return {
        glyph: PHASE_GLYPH.tripped,
        word: REASON_WORD.rate_limit,
        detail: [phaseDetail('tripped', breaker.deadline, 'rate_limit', now), `refused ${breaker.refused}`],
        tone: 'warn',
      };
    case 'streak':
      return {
        glyph: '·',
        word: 'streak',
        detail: [`${breaker.streak} of ${tripThreshold} errors in a row`],
        tone: 'warn',
      };
  }
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
