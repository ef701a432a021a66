import { JoinedText, JsonText, RawString, type Text } from './text.js';

/**
 * A translated body written once, as compact JSON, into one buffer: the
 * structure and short strings as text, every `RawString` copied from the
 * agent's bytes as it stood (no decoding, no escaping again), joined texts
 * written part by part. Members whose value is `undefined` are left out, as
 * `JSON.stringify` leaves them out.
 */
export function writeJson(value: unknown): Buffer {
  const writer = new Writer();
  writer.value(value);
  return writer.bytes();
}

class Writer {
  /** text and raw pieces, in order */
  private readonly parts: Array<string | RawString> = [];
  private text = '';

  value(value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.text += JSON.stringify(value);
        return;
      case 'number':
        this.text += Number.isFinite(value) ? String(value) : 'null';
        return;
      case 'boolean':
        this.text += value ? 'true' : 'false';
        return;
      case 'object':
        break;
      default:
        this.text += 'null';
        return;
    }
    if (value === null) this.text += 'null';
    else if (value instanceof RawString || value instanceof JoinedText || value instanceof JsonText) {
      this.text += '"';
      this.content(value);
      this.text += '"';
    } else if (Array.isArray(value)) {
      this.text += '[';
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.text += ',';
        this.value(value[i]);
      }
      this.text += ']';
    } else {
      this.text += '{';
      let first = true;
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const member = record[key];
        if (member === undefined || typeof member === 'function') continue;
        this.text += first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`;
        first = false;
        this.value(member);
      }
      this.text += '}';
    }
  }

  /** A text's content between its quotes. */
  private content(text: Text): void {
    if (typeof text === 'string') this.text += escaped(text);
    else if (text instanceof RawString) {
      if (text.byteLength === 0) return;
      if (this.text !== '') this.parts.push(this.text);
      this.text = '';
      this.parts.push(text);
    } else if (text instanceof JoinedText) {
      const separator = escaped(text.separator);
      text.parts.forEach((part, i) => {
        if (i > 0) this.text += separator;
        this.content(part);
      });
    } else this.text += escaped(writeJson(text.value).toString('utf8'));
  }

  bytes(): Buffer {
    const parts = this.parts;
    if (this.text !== '') parts.push(this.text);
    let size = 0;
    for (const part of parts) size += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (const part of parts) {
      if (typeof part === 'string') at += out.write(part, at);
      else at += part.source.copy(out, at, part.start, part.end);
    }
    return out;
  }
}

/** A string's JSON escaping, without the quotes. */
function escaped(text: string): string {
  return text === '' ? '' : JSON.stringify(text).slice(1, -1);
}
