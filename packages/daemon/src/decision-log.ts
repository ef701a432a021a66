import { mkdir, open, rename, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DaemonEvent } from '@routeplane/shared';
import type { EventBus } from './events/bus.js';
import { EVENT_WRITE_WINDOW_MS, jsonOf } from './events/event-line.js';
import { LineBuffer } from './events/line-buffer.js';
import type { DaemonLog } from './log.js';

/**
 * Appends every decision event to an NDJSON file, asynchronously: the bus
 * listener only queues a line, and one writer drains the queue in batches
 * (one write per EVENT_WRITE_WINDOW_MS at most), so no request ever waits on
 * the disk. Lines are gathered as bytes in one of two buffers, written in
 * turn: one fills while the other is on its way to the disk. Past
 * `maxBytes` the file is rotated: `PATH.1` becomes `PATH.2` and so on up to
 * `PATH.KEEP` (the oldest, replaced), the file becomes `PATH.1`, and a new
 * file is started. `routeplane usage` reads them all, oldest first.
 *
 * A failing disk must not take routing down: write errors are logged once per
 * failure streak and the lines dropped.
 */
export class DecisionLog {
  private readonly unsubscribe: () => void;
  /** where lines go as they come */
  private filling = new LineBuffer();
  /** the other buffer: empty, or being written */
  private writing = new LineBuffer();
  private draining: Promise<void> | null = null;
  private handle: FileHandle | null = null;
  private size = 0;
  private failing = false;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
    bus: EventBus,
    private readonly log: DaemonLog,
    /** how many rotated files are kept (`decision_log.keep`) */
    private readonly keep = 3,
  ) {
    this.unsubscribe = bus.subscribe((event) => this.onEvent(event));
  }

  private onEvent(event: DaemonEvent): void {
    if (event.type !== 'decision' || this.closed) return;
    this.filling.appendLine(jsonOf(event));
    this.draining ??= this.drain();
  }

  /** Writes queued lines until the queue is empty, one batch per window; one drain runs at a time. */
  private async drain(): Promise<void> {
    try {
      while (this.filling.length > 0) {
        // gather what the next few milliseconds bring into this write
        await new Promise((resolve) => setTimeout(resolve, EVENT_WRITE_WINDOW_MS));
        const batch = this.filling;
        this.filling = this.writing;
        this.writing = batch;
        await this.write(batch.view());
        batch.clear();
      }
    } finally {
      this.draining = null;
    }
  }

  private async write(bytes: Buffer): Promise<void> {
    try {
      const handle = await this.fileFor(bytes.length);
      await handle.write(bytes);
      this.size += bytes.length;
      this.failing = false;
    } catch (err) {
      if (!this.failing)
        this.log(
          `decision log: cannot write ${this.path} (${(err as NodeJS.ErrnoException).code ?? 'error'}); decisions are not being recorded`,
          'error',
        );
      this.failing = true;
      await this.closeHandle();
    }
  }

  /** The open file, rotated first when `incoming` bytes would take it past the limit. */
  private async fileFor(incoming: number): Promise<FileHandle> {
    if (this.handle === null) {
      await mkdir(dirname(this.path), { recursive: true });
      this.handle = await open(this.path, 'a', 0o600);
      this.size = (await stat(this.path)).size;
    }
    if (this.size > 0 && this.size + incoming > this.maxBytes) {
      await this.closeHandle();
      for (let n = this.keep - 1; n >= 1; n--) await renameIfThere(`${this.path}.${n}`, `${this.path}.${n + 1}`);
      await rename(this.path, `${this.path}.1`);
      this.handle = await open(this.path, 'a', 0o600);
      this.size = 0;
    }
    return this.handle;
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => {});
  }

  /** Resolves once every line queued so far is on disk (or dropped after a write error). */
  async flushed(): Promise<void> {
    while (this.draining !== null) await this.draining;
  }

  /** Stops listening, writes what is queued, closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    await this.flushed();
    await this.closeHandle();
  }
}

/** Moves `from` to `to` (replacing it); a `from` that is not there yet is nothing to move. */
async function renameIfThere(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
