import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';

/**
 * Terminal text measuring and fitting. Every line of the monitor is laid out
 * here, to an exact width, so Ink never has to wrap: a name too long for its
 * column ends in a deliberate `…`, never mid-word at the screen edge. Widths
 * come from `string-width` (what Ink itself measures with), cuts from
 * `cli-truncate`, so a line we lay out is exactly as wide as Ink thinks.
 */
export function textWidth(text: string): number {
  return stringWidth(text);
}

export const ELLIPSIS = '…';

/** `text` cut to at most `width` columns; a cut ends in `…`. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  return cliTruncate(text, width, { position: 'end' });
}

/** `text` in exactly `width` columns: truncated with `…` or padded with spaces. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncate(text, width);
  const pad = ' '.repeat(Math.max(0, width - textWidth(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}

/** The longest start of `text` at most `width` columns wide. */
function head(chars: readonly string[], width: number): string {
  let out = '';
  let used = 0;
  for (const ch of chars) {
    const w = textWidth(ch);
    if (used + w > width) break;
    out += ch;
    used += w;
  }
  return out;
}

/** The longest end of `text` at most `width` columns wide. */
function tail(chars: readonly string[], width: number): string {
  let out = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    const w = textWidth(chars[i]!);
    if (used + w > width) break;
    out = chars[i] + out;
    used += w;
  }
  return out;
}

/**
 * The end of a name that tells it from its siblings: a version made of short
 * numbers (`-4-5`, `-4.5`), else its last separated part (`-20250929`, `-codex`).
 */
const VERSION_TAIL = /(?:[-._][0-9]{1,2})+$/;
const LAST_PART = /[-/._:][^-/._:]+$/;

function distinguishingTail(text: string): string {
  return VERSION_TAIL.exec(text)?.[0] ?? LAST_PART.exec(text)?.[0] ?? '';
}

/**
 * Ways to cut `text` into `width` columns with `…` in the middle, best first:
 * the tail kept from the last separator (`claude-sonnet…-20250929`: a model's
 * date or version is what tells it from its siblings), then ever longer tails,
 * then the plain end cut. Every candidate is exactly `width` wide or less.
 */
export function middleCuts(text: string, width: number): string[] {
  if (textWidth(text) <= width) return [text];
  if (width <= 1) return [truncate(text, width)];
  const chars = Array.from(text);
  const room = width - 1;
  const cuts: string[] = [];
  const add = (tailWidth: number) => {
    const t = tail(chars, Math.max(0, Math.min(room, tailWidth)));
    const cut = head(chars, room - textWidth(t)) + ELLIPSIS + t;
    if (!cuts.includes(cut)) cuts.push(cut);
  };
  const sepTail = textWidth(distinguishingTail(text));
  if (sepTail > 0 && sepTail <= Math.ceil(room / 2)) add(sepTail);
  for (let t = Math.max(1, Math.floor(room / 3)); t <= room; t += 1) add(t);
  const end = truncate(text, width);
  if (!cuts.includes(end)) cuts.push(end);
  return cuts;
}

/**
 * Each name shown in at most `width` columns, so that two different names
 * never look the same: names that fit stay whole; a cut takes the first of
 * `cutsOf(name)` that no other shown name already reads as.
 */
export function distinctCuts(
  names: Iterable<string>,
  width: number,
  cutsOf: (name: string, width: number) => string[] = middleCuts,
): Map<string, string> {
  const unique = [...new Set(names)];
  const shown = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of unique) {
    if (textWidth(name) <= width) {
      shown.set(name, name);
      taken.add(name);
    }
  }
  for (const name of unique) {
    if (shown.has(name)) continue;
    const cuts = cutsOf(name, width);
    const cut = cuts.find((c) => !taken.has(c)) ?? cuts[0] ?? truncate(name, width);
    shown.set(name, cut);
    taken.add(cut);
  }
  return shown;
}

/**
 * Cuts of a target name `seat/model`: the seat stays whole while it takes at
 * most half the room and the model is cut in its middle; otherwise the name
 * is cut as one.
 */
export function targetCuts(name: string, width: number): string[] {
  if (textWidth(name) <= width) return [name];
  const slash = name.indexOf('/');
  const seatPart = slash === -1 ? '' : name.slice(0, slash + 1);
  const seatWidth = textWidth(seatPart);
  const whole = middleCuts(name, width);
  if (seatWidth === 0 || seatWidth > Math.floor(width / 2)) return whole;
  const modelCuts = middleCuts(name.slice(slash + 1), width - seatWidth).map((m) => seatPart + m);
  return [...modelCuts, ...whole.filter((c) => !modelCuts.includes(c))];
}
