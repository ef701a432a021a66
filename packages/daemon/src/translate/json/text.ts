/**
 * String values of a translated request without copying them: a long string
 * of the agent's body stays the bytes it was (`RawString`, its escaped
 * content), texts the mapping joins stay their parts (`JoinedText`), and a
 * JSON value that must travel as a string (a tool call's arguments) stays
 * the value (`JsonText`). They are written out once, by `writeJson`.
 */

/** A JSON string value as it stands in `source`: the escaped content between its quotes. */
export class RawString {
  constructor(
    readonly source: Buffer,
    /** the byte after the opening quote */
    readonly start: number,
    /** the closing quote */
    readonly end: number,
  ) {}

  get byteLength(): number {
    return this.end - this.start;
  }

  /** The decoded text. */
  toString(): string {
    const content = this.source.toString('utf8', this.start, this.end);
    return content.includes('\\') ? (JSON.parse(`"${content}"`) as string) : content;
  }
}

/** Texts joined with a separator, written as one JSON string. */
export class JoinedText {
  constructor(
    readonly parts: readonly Text[],
    readonly separator: string,
  ) {}
}

/** A JSON value written as a JSON string holding its compact JSON text. */
export class JsonText {
  constructor(readonly value: unknown) {}
}

/** A string of a request read lazily (decoded when short, else raw bytes). */
export type Str = string | RawString;
/** A string of a request being written. */
export type Text = Str | JoinedText | JsonText;

export function isText(value: unknown): value is Text {
  return typeof value === 'string' || value instanceof RawString || value instanceof JoinedText || value instanceof JsonText;
}

export function joinText(parts: readonly Text[], separator: string): Text {
  if (parts.length === 1) return parts[0]!;
  if (parts.length === 0) return '';
  return new JoinedText(parts, separator);
}

export function isEmptyText(text: Text): boolean {
  if (typeof text === 'string') return text === '';
  if (text instanceof RawString) return text.byteLength === 0;
  if (text instanceof JoinedText) return text.separator === '' && text.parts.every(isEmptyText);
  return false;
}

/** The text itself, decoded: for the few values a mapping must read (a data URL's header, tool call arguments). */
export function textString(text: Text): string {
  if (typeof text === 'string') return text;
  if (text instanceof RawString) return text.toString();
  if (text instanceof JoinedText) return text.parts.map(textString).join(text.separator);
  return JSON.stringify(text.value, (_key, value: unknown) =>
    value instanceof RawString || value instanceof JoinedText || value instanceof JsonText ? textString(value) : value,
  );
}

const COMMA = 0x2c;
const DATA = Buffer.from('data:');

/**
 * A `data:` URL's header (`data:image/png;base64`) and its data, the data
 * left as it stands (a base64 payload of megabytes is never decoded); null
 * for any other URL.
 */
export function dataUrlParts(url: Text): { header: string; data: Text } | null {
  if (url instanceof RawString) {
    const { source, start, end } = url;
    const head = source.subarray(start, Math.min(end, start + DATA.length));
    // an escape where `data:` should be (`\u0064ata:`) is read the slow way
    if (head.includes(0x5c)) return dataUrlParts(url.toString());
    if (!head.equals(DATA)) return null;
    const comma = source.indexOf(COMMA, start);
    if (comma === -1 || comma >= end) return { header: url.toString(), data: '' };
    return { header: new RawString(source, start, comma).toString(), data: new RawString(source, comma + 1, end) };
  }
  const text = textString(url);
  if (!text.startsWith('data:')) return null;
  const comma = text.indexOf(',');
  return comma === -1 ? { header: text, data: '' } : { header: text.slice(0, comma), data: text.slice(comma + 1) };
}
