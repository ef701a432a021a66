import { STATE_FILE_VERSION, type StateFile } from '@routeplane/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StateSaver } from '../../src/state-file/saver.js';

/**
 * When saves happen: at most `delayMs` after a change (a burst is one write),
 * one write at a time, a last one on close; a failure is said once and tried
 * again. Timers are vitest's fake ones; writes resolve when the test says.
 */

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function harness(opts: { fail?: boolean } = {}) {
  let version = 0;
  const written: number[] = [];
  const errors: string[] = [];
  const pending: Array<() => void> = [];
  let failing = opts.fail ?? false;
  const saver = new StateSaver({
    delayMs: 100,
    retryMs: 5000,
    capture: (): StateFile => ({ version: STATE_FILE_VERSION, saved_at: version, saved_by: 'x', breakers: [], streaks: [] }),
    write: (s) =>
      new Promise<void>((resolve, reject) => {
        pending.push(() => {
          if (failing) reject(new Error('ENOSPC: no space left on device'));
          else {
            written.push(s.saved_at);
            resolve();
          }
        });
      }),
    onError: (m) => errors.push(m),
  });
  return {
    saver,
    written,
    errors,
    change(): void {
      version++;
      saver.changed();
    },
    /** the writes under way, finished */
    async finishWrites(): Promise<number> {
      await vi.advanceTimersByTimeAsync(0);
      const n = pending.length;
      for (const done of pending.splice(0)) done();
      await vi.advanceTimersByTimeAsync(0);
      return n;
    },
    setFailing(v: boolean): void {
      failing = v;
    },
  };
}

describe('the state saver', () => {
  it('a burst of changes is one write, of the state after the last change, delayMs after the first', async () => {
    const h = harness();
    h.change();
    h.change();
    await vi.advanceTimersByTimeAsync(60);
    h.change();
    expect(await h.finishWrites()).toBe(0);
    await vi.advanceTimersByTimeAsync(40);
    expect(await h.finishWrites()).toBe(1);
    expect(h.written).toEqual([3]);
    // nothing changed since: nothing more is written
    await vi.advanceTimersByTimeAsync(1000);
    expect(await h.finishWrites()).toBe(0);
  });

  it('one write at a time: a change during a write is saved by the next one, delayMs after that write', async () => {
    const h = harness();
    h.change();
    await vi.advanceTimersByTimeAsync(100); // write 1 starts and hangs
    h.change();
    await vi.advanceTimersByTimeAsync(500);
    expect(await h.finishWrites()).toBe(1); // only write 1 was under way
    await vi.advanceTimersByTimeAsync(100);
    expect(await h.finishWrites()).toBe(1);
    expect(h.written).toEqual([1, 2]);
  });

  it('close waits for the write under way, then saves the state as it is', async () => {
    const h = harness();
    h.change();
    await vi.advanceTimersByTimeAsync(100);
    h.change();
    const closing = h.saver.close();
    await h.finishWrites(); // the one under way
    await h.finishWrites(); // the last save
    await closing;
    expect(h.written).toEqual([1, 2]);
    h.change(); // after close: nothing
    await vi.advanceTimersByTimeAsync(1000);
    expect(await h.finishWrites()).toBe(0);
  });

  it('close saves even when nothing changed; stop never saves', async () => {
    const h = harness();
    const closing = h.saver.close();
    await h.finishWrites();
    await closing;
    expect(h.written).toEqual([0]);
    const s = harness();
    s.change();
    s.saver.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await s.finishWrites()).toBe(0);
  });

  it('a failing save is said once, tried again after retryMs, and said again only after a success', async () => {
    const h = harness({ fail: true });
    h.change();
    await vi.advanceTimersByTimeAsync(100);
    await h.finishWrites();
    expect(h.errors).toEqual(['ENOSPC: no space left on device']);
    h.change(); // waits for the retry, not the short delay
    await vi.advanceTimersByTimeAsync(4999);
    expect(await h.finishWrites()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await h.finishWrites()).toBe(1);
    expect(h.errors).toHaveLength(1);
    h.setFailing(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await h.finishWrites()).toBe(1);
    expect(h.written).toEqual([2]);
    h.setFailing(true);
    h.change();
    await vi.advanceTimersByTimeAsync(100);
    await h.finishWrites();
    expect(h.errors).toHaveLength(2);
  });
});
