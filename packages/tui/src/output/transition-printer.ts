import type { BreakerEvent } from '@routeplane/shared';
import {
  commandLine,
  isCommandEvent,
  sameCommand,
  type TransitionEvent,
  type TransitionOptions,
  transitionLine,
} from './transition-line.js';

/** Runs `fn` later; returns how to cancel it. */
export type Schedule = (fn: () => void) => () => void;

/**
 * Prints transitions as they come, one line each, except that the events of
 * one command (a reset of a seat ends each of its breakers) are held a
 * moment and said together: `reset seat-a by control socket: cleared 2`.
 * They arrive back to back, so a run ends at the first event that does not
 * belong to it, or when `schedule` fires. Whoever prints other lines in
 * between (decisions) calls `flush()` first, so the order stays as it came.
 */
export class TransitionPrinter {
  private held: BreakerEvent[] = [];
  private cancel: (() => void) | null = null;

  constructor(
    private readonly print: (line: string) => void,
    private readonly options: TransitionOptions,
    private readonly schedule: Schedule,
  ) {}

  push(event: TransitionEvent): void {
    if (event.type === 'breaker' && isCommandEvent(event)) {
      const last = this.held[this.held.length - 1];
      if (last !== undefined && !sameCommand(last, event)) this.flush();
      this.held.push(event);
      this.cancel ??= this.schedule(() => {
        this.cancel = null;
        this.flush();
      });
      return;
    }
    this.flush();
    const line = transitionLine(event, this.options);
    if (line !== null) this.print(line);
  }

  /** Says what is held, now. */
  flush(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.held.length === 0) return;
    const run = this.held;
    this.held = [];
    this.print(commandLine(run, this.options));
  }
}

/** A `Schedule` on a timer: `holdMs` after the first held event. */
export function afterMs(holdMs: number): Schedule {
  return (fn) => {
    const timer = setTimeout(fn, holdMs);
    return () => clearTimeout(timer);
  };
}
