/**
 * Lines of text gathered as UTF-8 bytes in one reusable buffer, for a
 * consumer that writes them out in batches (the decision log). Joining the
 * lines into one string per batch made a string of every decision of the
 * batch — past V8's large-object size at ten thousand requests a second —
 * that lived through the write and so was promoted to the old generation by
 * any scavenge meeting it: each request's decision then cost a full
 * collection's work later. Bytes written into a buffer that lives as long as
 * its owner leave nothing behind.
 */
export class LineBuffer {
  private bytes: Buffer;
  private used = 0;

  constructor(private readonly initialBytes = 64 * 1024) {
    this.bytes = Buffer.allocUnsafeSlow(initialBytes);
  }

  /** bytes gathered so far */
  get length(): number {
    return this.used;
  }

  /** Appends `text` and a newline. */
  appendLine(text: string): void {
    // a UTF-16 code unit is at most 3 bytes of UTF-8: while that fits, nothing needs measuring
    if (this.bytes.length - this.used < text.length * 3 + 1) this.reserve(Buffer.byteLength(text) + 1);
    this.used += this.bytes.write(text, this.used, 'utf8');
    this.bytes[this.used++] = 0x0a;
  }

  /** The bytes gathered, valid until `clear`. */
  view(): Buffer {
    return this.bytes.subarray(0, this.used);
  }

  /** Empties it for reuse; a buffer a burst grew past a few times its start size is let go. */
  clear(): void {
    this.used = 0;
    if (this.bytes.length > this.initialBytes * 16) this.bytes = Buffer.allocUnsafeSlow(this.initialBytes);
  }

  private reserve(needed: number): void {
    if (this.bytes.length - this.used >= needed) return;
    let size = this.bytes.length * 2;
    while (size - this.used < needed) size *= 2;
    const grown = Buffer.allocUnsafeSlow(size);
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }
}
