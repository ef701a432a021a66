/**
 * The first event of a server-sent event stream, read from a chunk that may
 * end anywhere (the WHATWG "event stream interpretation", reduced to what
 * the embedded-error check needs: the event name and its data). Lines end
 * with LF or CRLF; a lone CR as a line end is not recognised. Comments
 * (`: OPENROUTER PROCESSING`) and `id:` / `retry:` lines are skipped, as is
 * any event before the first one `wanted` accepts.
 */
export interface FirstEvent {
  /** the `event:` field, null when the event has none (a plain "message") */
  name: string | null;
  /** the `data:` lines joined with LF, null when none arrived */
  data: string | null;
  /** false when the chunk ended before the blank line that closes the event: `data` may be cut short */
  complete: boolean;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

/**
 * True while the bytes hold nothing but comments and blank lines: no field
 * of any event has begun. A last line still arriving counts as a comment
 * when it starts with `:` (or has no byte yet).
 */
export function onlyComments(buf: Buffer, from: number): boolean {
  let i = from;
  while (i < buf.length) {
    const c = buf[i];
    if (c === LF || c === CR) {
      i++;
      continue;
    }
    if (c !== COLON) return false;
    const lf = buf.indexOf(LF, i);
    if (lf === -1) return true;
    i = lf + 1;
  }
  return true;
}

export function firstEvent(buf: Buffer, from: number, wanted: (event: FirstEvent) => boolean): FirstEvent | null {
  let name: string | null = null;
  let data: string[] | null = null;
  let i = from;
  while (i < buf.length) {
    const lf = buf.indexOf(LF, i);
    const terminated = lf !== -1;
    const next = terminated ? lf + 1 : buf.length;
    let end = terminated ? lf : buf.length;
    if (terminated && end > i && buf[end - 1] === CR) end--;
    if (end === i) {
      // a blank line dispatches the event, then starts a new one
      if (name !== null || data !== null) {
        const event = { name, data: data === null ? null : data.join('\n'), complete: true };
        if (wanted(event)) return event;
      }
      name = null;
      data = null;
    } else if (buf[i] !== COLON) {
      const line = buf.toString('utf8', i, end);
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.charCodeAt(0) === 0x20) value = value.slice(1);
      if (field === 'data') (data ??= []).push(value);
      // an unterminated `event:` line may still be growing (`event: err…`): its name is not known yet
      else if (field === 'event' && terminated) name = value;
    }
    i = next;
  }
  if (name === null && data === null) return null;
  const event = { name, data: data === null ? null : data.join('\n'), complete: false };
  return wanted(event) ? event : null;
}
