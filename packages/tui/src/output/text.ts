/**
 * Terminal text measuring and fitting. Every line of the monitor is laid out
 * here, to an exact width, so Ink never has to wrap: a name too long for its
 * column ends in a deliberate `…`, never mid-word at the screen edge.
 *
 * Width is counted per code point: 0 for combining marks and joiners, 2 for
 * East Asian wide/fullwidth characters and emoji, 1 otherwise. That is what
 * terminals do for the text a monitor shows (ids, model names, our glyphs),
 * without pulling in a width library for it.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: one code point per test, never a sequence
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\u2060\ufe00-\ufe0f]$/u;

function codePointWidth(cp: number, ch: string): number {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (ZERO_WIDTH.test(ch)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += codePointWidth(ch.codePointAt(0)!, ch);
  return width;
}

export const ELLIPSIS = '…';

/** `text` cut to at most `width` columns; a cut ends in `…`. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = codePointWidth(ch.codePointAt(0)!, ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return out + ELLIPSIS;
}

/** `text` in exactly `width` columns: truncated with `…` or padded with spaces. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncate(text, width);
  const pad = ' '.repeat(Math.max(0, width - textWidth(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}
