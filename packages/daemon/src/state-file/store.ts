import { MemoryStore } from '../breaker/store.js';
import type { InfluenceEngine } from '../breaker/engine.js';
import { applyRestoration, captureState, restoration } from '../breaker/saved-state.js';
import type { Clock } from '../breaker/types.js';
import { loadStateFile, removeStaleTemps } from './read.js';
import { StateSaver } from './saver.js';
import { writeStateFile } from './write.js';
import type { DaemonLog } from '../log.js';

/** Changes gathered before one save: well within the second a change may wait to be saved, and a burst of trips costs one write. */
const SAVE_DELAY_MS = 100;
const RETRY_DELAY_MS = 5000;

/**
 * Breakers kept in this daemon's memory and in `influence.state_file`.
 * The engine tells its store
 * of every transition and streak change (breaker/store.ts): here each one
 * schedules a save, and `close` — the daemon's shutdown — makes the last.
 *
 * `attach` hands it the engine; a reload that switches influence off and on
 * again builds a new one, and attaches that: saves always capture the engine
 * the daemon routes with. The file is loaded into the first engine there is
 * once the daemon has started: at `start`, or — for a daemon started with
 * influence off, which leaves the file as it is — at the reload that
 * switches influence on.
 */
export class StateFileStore extends MemoryStore {
  private engine: InfluenceEngine | null = null;
  private saver: StateSaver | null = null;
  private started = false;
  private opened = false;
  private stopped = false;
  private restoredCount = 0;

  constructor(
    readonly path: string,
    private readonly clock: Clock,
    private readonly log: DaemonLog,
  ) {
    super(clock.now());
  }

  /** breakers that came back from the file (at start, or at the reload that switched influence on) */
  override get restored(): number {
    return this.restoredCount;
  }

  /** the file is read and saved to (influence is on, or was switched on since start) */
  get inUse(): boolean {
    return this.opened;
  }

  attach(engine: InfluenceEngine): void {
    this.engine = engine;
    if (this.started && !this.opened) void this.open(engine, true);
  }

  /** Loads the file into the engine and starts saving, when influence is on. Problems with the file are said in one line, never thrown. */
  override async start(): Promise<void> {
    this.started = true;
    if (this.engine !== null) await this.open(this.engine, false);
  }

  /** `live`: the engine already routes (a reload switched influence on), so what it did while the file was read is saved too. */
  private async open(engine: InfluenceEngine, live: boolean): Promise<void> {
    this.opened = true;
    await removeStaleTemps(this.path);
    const loaded = await loadStateFile(this.path, this.clock.now());
    // shut down while the file was read: nothing more to save
    if (this.stopped) return;
    this.saver = new StateSaver({
      delayMs: SAVE_DELAY_MS,
      retryMs: RETRY_DELAY_MS,
      // the engine attached last: after an off-and-on reload, the one the daemon routes with
      capture: () => {
        const current = this.engine ?? engine;
        return captureState(current.state, current.state.origin);
      },
      write: (state) => writeStateFile(this.path, state),
      onError: (message) => this.log(`routeplane: cannot save breaker state to ${this.path}: ${message}`, 'error'),
    });
    if (live) this.saver.changed();
    switch (loaded.kind) {
      case 'missing':
        return;
      case 'set_aside':
        this.log(`routeplane: state file ${this.path} is ${loaded.why}: moved it to ${loaded.movedTo}, starting with no breakers`, 'error');
        return;
      case 'stuck':
        this.log(
          `routeplane: state file ${this.path} is ${loaded.why} and cannot be moved aside (${loaded.moveError}): starting with no breakers`,
          'error',
        );
        return;
      case 'loaded': {
        const { state } = engine;
        const r = restoration(loaded.state, state.topology, state.limits, state.clock.now());
        // each breaker installed is a change: the cleaned state goes to the file with the first save
        applyRestoration(engine, r);
        if (r.dropped.length > 0) this.saver.changed();
        this.restoredCount = r.breakers.length;
        if (live) this.log(`routeplane: influence switched on: restored ${r.breakers.length} breaker(s) from ${this.path}`, 'info');
        return;
      }
    }
  }

  override changed(): void {
    this.saver?.changed();
  }

  override streak(): void {
    this.saver?.changed();
  }

  /** The daemon is shutting down: the last save. */
  override async close(): Promise<void> {
    this.stopped = true;
    await this.saver?.close();
  }

  /** The daemon never finished starting: no save, now or at close. */
  override async abandon(): Promise<void> {
    this.stop();
  }

  stop(): void {
    this.stopped = true;
    this.saver?.stop();
  }
}
