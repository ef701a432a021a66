/**
 * Upstream words made safe to show people:
 * control characters removed (a provider's message ends up on a terminal,
 * where an escape sequence could move the cursor or recolour the screen),
 * every secret redacted, and the length capped.
 */

/**
 * C0 controls, DEL and C1 controls, plus the bidirectional overrides and
 * isolates, which reorder what a terminal shows without being "control
 * characters" to Unicode. Tabs and line breaks become spaces so words stay apart.
 */
const LINE_BREAKS = /[\t\n\r\v\f]+/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export const REDACTED = '[redacted]';

/**
 * `text` with control characters removed, then every secret replaced, then
 * cut to `max` characters (the cut marked with `…`). In that order: removing
 * a control character can join the two halves of a key, and a cut made before
 * redaction could leave part of a key behind. Null when nothing is left.
 */
export function plainText(text: string, secrets: readonly string[], max: number): string | null {
  let out = text.replace(LINE_BREAKS, ' ').replace(CONTROLS, '');
  out = redact(out, secrets).trim();
  if (out.length === 0) return null;
  if (out.length <= max) return out;
  let cut = max - 1;
  // never end on the first half of a surrogate pair
  const last = out.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${out.slice(0, cut)}…`;
}

/** Every non-empty secret replaced; longer ones first, so a key that contains another is never half-redacted. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  const bySize = secrets.length > 1 ? [...secrets].sort((a, b) => b.length - a.length) : secrets;
  for (const secret of bySize) {
    if (secret.length > 0 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
