import { clipSegments, seg, segmentsText, type Segment, type Tone } from '../../../output/segment.js';
import { fit, textWidth } from '../../../output/text.js';

/**
 * A screen line as data: toned pieces of text (../../../output/segment.ts),
 * already laid out to the width it will be shown at. Panels build lines with
 * pure functions (tested without a terminal); one component paints them; the
 * non-TTY printout joins their text.
 */
export interface Line {
  readonly segments: readonly Segment[];
  /** the selectable row this line shows, if any */
  readonly key?: string;
}

export function line(segments: readonly Segment[], key?: string): Line {
  return key === undefined ? { segments } : { segments, key };
}

export function lineText(l: Line): string {
  return segmentsText(l.segments);
}

export function lineWidth(l: Line): number {
  return textWidth(lineText(l));
}

/** `l` cut to `width` columns; a cut ends in `…` (in the tone of the segment it cut). */
export function clipLine(l: Line, width: number): Line {
  const segments = clipSegments(l.segments, width);
  return segments === l.segments ? l : { ...l, segments };
}

/** Left part and right part on one line, the right part flush with `width`. */
export function spread(left: readonly Segment[], right: readonly Segment[], width: number): Line {
  const rightWidth = textWidth(right.map((s) => s.text).join(''));
  const leftLine = clipLine(line(left), Math.max(0, width - rightWidth - 1));
  const gap = Math.max(1, width - lineWidth(leftLine) - rightWidth);
  return clipLine(line([...leftLine.segments, seg(' '.repeat(gap)), ...right]), width);
}

/** A panel title rule: `─ CHAINS  note ───────── right`. */
export function titleLine(title: string, note: readonly Segment[], width: number, right: readonly Segment[] = []): Line {
  const left = [seg('─ ', 'muted'), seg(title, 'title'), ...(note.length > 0 ? [seg('  '), ...note] : []), seg(' ')];
  const leftWidth = textWidth(left.map((s) => s.text).join(''));
  const rightWidth = textWidth(right.map((s) => s.text).join(''));
  const fill = width - leftWidth - rightWidth - (right.length > 0 ? 1 : 0);
  if (fill < 1) return clipLine(line([...left, ...right]), width);
  return line([...left, seg('─'.repeat(fill), 'muted'), ...(right.length > 0 ? [seg(' '), ...right] : [])]);
}

/** A name in a column: the name in its tone (a selection highlights only the name), then padding. */
export function cell(text: string, width: number, tone: Tone): Segment[] {
  const shown = fit(text, width).trimEnd();
  const pad = width - textWidth(shown);
  return pad > 0 ? [seg(shown, tone), seg(' '.repeat(pad))] : [seg(shown, tone)];
}

/**
 * `l` over as many rows as it needs at `width`, broken between words, each
 * continuation indented by `indent` columns — for text that must be read
 * whole (an explained decision), not cut. A word longer than a row is
 * broken where the row ends.
 */
export function wrapLine(l: Line, width: number, indent: number): Line[] {
  if (lineWidth(l) <= width) return [l];
  const rows: Segment[][] = [[]];
  let used = 0;
  const newRow = () => {
    rows.push([seg(' '.repeat(indent))]);
    used = indent;
  };
  const put = (text: string, tone: Tone) => {
    rows.at(-1)!.push(seg(text, tone));
    used += textWidth(text);
  };
  for (const s of l.segments) {
    // words with the spaces before them: `a b` → `a`, ` b`
    for (const word of s.text.split(/(?= )/)) {
      const w = textWidth(word);
      if (used + w <= width) {
        put(word, s.tone);
        continue;
      }
      const bare = word.replace(/^ +/, '');
      if (used > indent && indent + textWidth(bare) <= width) {
        newRow();
        put(bare, s.tone);
        continue;
      }
      for (const ch of bare) {
        if (used + textWidth(ch) > width) newRow();
        put(ch, s.tone);
      }
    }
  }
  return rows.map((segments) => line(segments));
}
