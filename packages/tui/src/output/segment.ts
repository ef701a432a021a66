import type { ChalkInstance } from 'chalk';
import { ELLIPSIS, textWidth, truncate } from './text.js';

/**
 * Text as data: pieces that each name a *tone* (what they mean), not a
 * colour. `top` paints tones through its theme (Ink props); the line
 * commands (`logs`, the demo's log) paint them with chalk. So one builder
 * can write a line for both, and colour is chosen in one place per output.
 */
export type Tone = 'plain' | 'ok' | 'bad' | 'warn' | 'probe' | 'info' | 'muted' | 'title' | 'key' | 'selected' | 'badge';

export interface Segment {
  readonly text: string;
  readonly tone: Tone;
}

export function seg(text: string, tone: Tone = 'plain'): Segment {
  return { text, tone };
}

export function segmentsText(segments: readonly Segment[]): string {
  return segments.map((s) => s.text).join('');
}

/** `segments` cut to at most `width` columns; a cut ends in `…`, in the tone of the piece it cut. */
export function clipSegments(segments: readonly Segment[], width: number): readonly Segment[] {
  if (textWidth(segmentsText(segments)) <= width) return segments;
  const out: Segment[] = [];
  let used = 0;
  for (const s of segments) {
    const w = textWidth(s.text);
    if (used + w <= width - 1) {
      out.push(s);
      used += w;
      continue;
    }
    // `+ ELLIPSIS` makes it too wide even when the piece alone would just fit: the cut always shows
    out.push(seg(truncate(s.text + ELLIPSIS, width - used), s.tone));
    break;
  }
  return out;
}

const CHALK_TONE: Record<Tone, (c: ChalkInstance) => ChalkInstance | null> = {
  plain: () => null,
  ok: (c) => c.green,
  bad: (c) => c.red,
  warn: (c) => c.yellow,
  probe: (c) => c.cyan,
  info: (c) => c.blue,
  muted: (c) => c.dim,
  title: (c) => c.bold,
  key: (c) => c.cyan.bold,
  selected: (c) => c.inverse,
  badge: (c) => c.inverse.bold,
};

/** One string for a line printer; a chalk of level 0 (NO_COLOR, not a terminal) writes no escapes. */
export function paint(segments: readonly Segment[], colour: ChalkInstance): string {
  return segments
    .map((s) => {
      const style = CHALK_TONE[s.tone](colour);
      return style && s.text !== '' ? style(s.text) : s.text;
    })
    .join('');
}
