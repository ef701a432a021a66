import { EventEmitter } from 'node:events';
import { render, type Instance } from 'ink';
import type { ReactElement } from 'react';

/**
 * Renders an Ink tree into a fake terminal of a chosen size, like
 * ink-testing-library (whose stdout is fixed at 100 columns and has no rows),
 * plus `resize` and bounded "wait until the frame shows X" helpers: input
 * reaches Ink asynchronously, and CI machines are slow, so tests wait for
 * what they expect instead of sleeping.
 */
class FakeStdout extends EventEmitter {
  readonly frames: string[] = [];
  isTTY = true;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read = (): string | null => {
    const { data } = this;
    this.data = null;
    return data;
  };
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export interface RenderedInk {
  readonly instance: Instance;
  /** resolves once Ink listens to stdin (keys written before that are lost) */
  ready(): Promise<void>;
  /** the last frame as written, with escape codes */
  rawFrame(): string;
  /** the last frame as text */
  frame(): string;
  /** frames written so far (one per Ink render) */
  frameCount(): number;
  /** writes keys to stdin */
  press(keys: string): void;
  resize(columns: number, rows: number): void;
  waitFor(expect: string | ((frame: string) => boolean), timeoutMs?: number): Promise<string>;
  /** presses keys, then waits for the frame to show what they should cause */
  pressUntil(keys: string, expect: string | ((frame: string) => boolean), timeoutMs?: number): Promise<string>;
  unmount(): void;
}

export const ARROW_UP = '\x1b[A';
export const ARROW_DOWN = '\x1b[B';
export const ENTER = '\r';
export const ESC = '\x1b';
export const BACKSPACE = '\x7f';

export function renderInk(node: ReactElement, size: { columns: number; rows: number } = { columns: 100, rows: 30 }): RenderedInk {
  const stdout = new FakeStdout(size.columns, size.rows);
  const stdin = new FakeStdin();
  const stderr = new FakeStdout(size.columns, size.rows);
  const instance = render(node, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const rawFrame = () => stdout.frames.at(-1) ?? '';
  const frame = () => stripAnsi(rawFrame());
  const waitFor = async (expect: string | ((frame: string) => boolean), timeoutMs = 4000): Promise<string> => {
    const test = typeof expect === 'string' ? (f: string) => f.includes(expect) : expect;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = frame();
      if (test(current)) return current;
      if (Date.now() > deadline) {
        throw new Error(
          `timed out waiting for ${typeof expect === 'string' ? JSON.stringify(expect) : 'a condition'}; last frame:\n${current}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return {
    instance,
    ready: async () => {
      const deadline = Date.now() + 4000;
      while (stdin.listenerCount('readable') === 0) {
        if (Date.now() > deadline) throw new Error('Ink never started reading stdin');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    rawFrame,
    frame,
    frameCount: () => stdout.frames.length,
    press: (keys) => stdin.write(keys),
    resize: (columns, rows) => {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit('resize');
    },
    waitFor,
    pressUntil: async (keys, expect, timeoutMs) => {
      stdin.write(keys);
      return waitFor(expect, timeoutMs);
    },
    unmount: () => {
      instance.unmount();
      instance.cleanup();
    },
  };
}
