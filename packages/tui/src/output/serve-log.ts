import type { DaemonEvent } from '@routeplane/shared';
import { type StartFacts, startEvent, startLines } from './serve-start.js';
import { timeOfDay } from './time-words.js';
import { TransitionPrinter, type Schedule } from './transition-printer.js';

export type ServeLogFormat = 'text' | 'json';
export type LineLevel = 'info' | 'error';
/** what else says a line: `store`, the daemon's line about its shared store, which a `store` event says too */
export type LineTopic = 'store';

export interface ServeLogOptions {
  format: ServeLogFormat;
  /** only errors */
  quiet: boolean;
  /** where the lines go (stderr) */
  write: (text: string) => void;
  now: () => number;
  /** when a held command's lines are said (see TransitionPrinter) */
  schedule: Schedule;
}

/**
 * Everything `serve` writes besides its first stdout line: the start
 * lines, the daemon's own lines (a reload, a state file set aside, a store
 * degraded), and one line per breaker transition — as text, or with
 * `--log json` the same as NDJSON (`start`, `log` and the daemon's events);
 * `--quiet` keeps only errors. Once started, every text line carries the
 * time of day; before that, lines are part of the start and carry none.
 */
export class ServeLog {
  private started = false;
  /** `self` is known once the daemon has started */
  private readonly transitions: { self: string | null } = { self: null };
  private readonly printer: TransitionPrinter;

  constructor(private readonly o: ServeLogOptions) {
    this.printer = new TransitionPrinter((line) => this.o.write(`${line}\n`), this.transitions, o.schedule);
  }

  /**
   * A line of the daemon's own, or serve's. In JSON a store line is left out
   * once the daemon has started: from then on the `store` event that comes
   * with it is the one line for that change. Before the start (no events are
   * written yet) and with `--quiet` (none are written at all) the line is the
   * one said.
   */
  line(text: string, level: LineLevel, topic?: LineTopic): void {
    if (this.o.quiet && level !== 'error') return;
    if (this.o.format === 'json') {
      if (topic === 'store' && this.started && !this.o.quiet) return;
      this.o.write(`${JSON.stringify({ type: 'log', ts: this.o.now(), level, message: text })}\n`);
      return;
    }
    this.printer.flush();
    this.o.write(this.started ? `${timeOfDay(this.o.now())} ${text}\n` : `${text}\n`);
  }

  /** The daemon has started: say what it is doing. */
  start(facts: StartFacts, daemonId: string): void {
    this.started = true;
    this.transitions.self = daemonId;
    if (this.o.quiet) return;
    if (this.o.format === 'json') this.o.write(`${JSON.stringify(startEvent(facts, this.o.now()))}\n`);
    else for (const l of startLines(facts)) this.o.write(`${l}\n`);
  }

  /**
   * A daemon event. Text: breaker transitions only — a reload and a store
   * change are said by the daemon's own lines, which carry more (what a
   * reload changed, why a store is degraded). JSON: breaker transitions,
   * reloads and store changes as the socket streams them.
   */
  event(event: DaemonEvent): void {
    if (this.o.quiet || event.type === 'decision' || event.type === 'usage') return;
    if (event.type === 'breaker' && (event.action === 'refused' || event.action === 'skipped')) return;
    if (this.o.format === 'json') this.o.write(`${JSON.stringify(event)}\n`);
    else if (event.type === 'breaker') this.printer.push(event);
  }

  /** Says what is held (before exiting). */
  flush(): void {
    this.printer.flush();
  }
}
