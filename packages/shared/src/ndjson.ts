import { StringDecoder } from 'node:string_decoder';

/** One JSON value per line. */
export function encodeLine(value: unknown): string {
  return JSON.stringify(value) + '\n';
}

export type LineResult = { kind: 'line'; line: string } | { kind: 'too_long'; length: number };

/**
 * Splits a byte stream into lines. Keeps the unfinished tail between chunks
 * and decodes UTF-8 with a StringDecoder, so a line or a multi-byte character
 * split across two reads still comes out whole. Past `maxChars` without a
 * newline it reports `too_long` once and discards until the next newline.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private tail = '';
  private discarding = false;

  constructor(private readonly maxChars: number) {}

  push(chunk: Buffer | string): LineResult[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const out: LineResult[] = [];
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      const piece = text.slice(start, nl);
      if (this.discarding) {
        this.discarding = false;
      } else {
        const line = this.tail + piece;
        if (line.length > this.maxChars) out.push({ kind: 'too_long', length: line.length });
        else if (line.trim() !== '') out.push({ kind: 'line', line: line.endsWith('\r') ? line.slice(0, -1) : line });
      }
      this.tail = '';
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (!this.discarding) {
      this.tail += text.slice(start);
      if (this.tail.length > this.maxChars) {
        out.push({ kind: 'too_long', length: this.tail.length });
        this.tail = '';
        this.discarding = true;
      }
    }
    return out;
  }

  /** Whatever is left when the stream ends without a final newline. */
  end(): LineResult[] {
    const rest = this.tail + this.decoder.end();
    this.tail = '';
    if (this.discarding || rest.trim() === '') return [];
    return rest.length > this.maxChars ? [{ kind: 'too_long', length: rest.length }] : [{ kind: 'line', line: rest }];
  }
}
