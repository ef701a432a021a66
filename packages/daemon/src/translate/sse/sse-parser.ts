/**
 * Server-sent events from bytes that arrive in chunks split anywhere (the
 * WHATWG event-stream interpretation): lines end with LF, CRLF or a lone
 * CR, even when the CR and LF of one line end arrive in different chunks;
 * `:` comments (`: OPENROUTER PROCESSING`), `id:` and `retry:` are skipped;
 * several `data:` lines join with LF; a blank line dispatches. Bytes are
 * decoded only per whole line, so a multi-byte character split between
 * chunks is never broken. An event the stream ends in the middle of is
 * never dispatched.
 */
export interface SseEvent {
  /** the `event:` field, null when the event has none */
  event: string | null;
  data: string;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = Buffer.from('data');
const EVENT = Buffer.from('event');

export class SseParser {
  /** the start of a line whose end has not arrived, in the chunks it came in */
  private partial: Buffer[] = [];
  /** the last chunk ended with CR: an LF first in the next one ends nothing more */
  private afterCr = false;
  private name: string | null = null;
  private data: string | null = null;

  constructor(private readonly dispatch: (event: SseEvent) => void) {}

  push(chunk: Buffer): void {
    let from = 0;
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk.length > 0 && chunk[0] === LF) from = 1;
    }
    // found once per chunk, then only past it: a chunk with no CR costs one scan
    let cr = chunk.indexOf(CR, from);
    while (from < chunk.length) {
      const lf = chunk.indexOf(LF, from);
      if (cr !== -1 && cr < from) cr = chunk.indexOf(CR, from);
      const end = cr !== -1 && (lf === -1 || cr < lf) ? cr : lf;
      if (end === -1) {
        this.partial.push(chunk.subarray(from));
        return;
      }
      let line = chunk.subarray(from, end);
      if (this.partial.length > 0) {
        this.partial.push(line);
        line = Buffer.concat(this.partial);
        this.partial = [];
      }
      this.line(line);
      from = end + 1;
      if (end === cr) {
        if (from === chunk.length) this.afterCr = true;
        else if (chunk[from] === LF) from++;
      }
    }
  }

  private line(line: Buffer): void {
    if (line.length === 0) {
      if (this.data !== null) this.dispatch({ event: this.name, data: this.data });
      this.name = null;
      this.data = null;
      return;
    }
    if (line[0] === COLON) return;
    if (isField(line, DATA)) {
      const value = fieldValue(line, DATA.length);
      this.data = this.data === null ? value : `${this.data}\n${value}`;
    } else if (isField(line, EVENT)) this.name = fieldValue(line, EVENT.length);
  }
}

/** The line's field is `name`: the name, then a colon or the end of the line. */
function isField(line: Buffer, name: Buffer): boolean {
  if (line.length < name.length || (line.length > name.length && line[name.length] !== COLON)) return false;
  for (let i = 0; i < name.length; i++) if (line[i] !== name[i]) return false;
  return true;
}

/** After the colon, without the one space that may follow it. */
function fieldValue(line: Buffer, nameLength: number): string {
  let start = nameLength + 1;
  if (start < line.length && line[start] === SPACE) start++;
  return start >= line.length ? '' : line.toString('utf8', start);
}
