import { MemoryStore } from '../breaker/store.js';
import type { InfluenceEngine } from '../breaker/engine.js';
import { applyRestoration, captureState, restoration } from '../breaker/saved-state.js';
import type { Clock } from '../breaker/types.js';
import { loadStateFile, removeStaleTemps } from './read.js';
import { StateSaver } from './saver.js';
import { writeStateFile } from './write.js';
import type { DaemonLog } from '../log.js';

/** Changes gathered before one save: well within the 1 s the spec allows, and a burst of trips costs one write. */
const SAVE_DELAY_MS = 100;
const RETRY_DELAY_MS = 5000;

/**
 * Breakers kept in this daemon's memory and in `influence.state_file`
 * (spec/lanes.md "State that survives a restart"). The engine tells its store
 * of every transition and streak change (breaker/store.ts): here each one
 * schedules a save, and `close` — the daemon's shutdown — makes the last.
 * `attach` hands it the engine, `start` loads the file into it.
 */
export class StateFileStore extends MemoryStore {
  private engine: InfluenceEngine | null = null;
  private saver: StateSaver | null = null;
  private restoredCount = 0;

  constructor(
    readonly path: string,
    private readonly clock: Clock,
    private readonly log: DaemonLog,
  ) {
    super(clock.now());
  }

  /** breakers that came back from the file at start */
  override get restored(): number {
    return this.restoredCount;
  }

  attach(engine: InfluenceEngine): void {
    this.engine = engine;
  }

  /** Loads the file into the engine and starts saving. Problems with the file are said in one line, never thrown. */
  override async start(): Promise<void> {
    const engine = this.engine;
    if (engine === null) throw new Error('state file: start() before attach()');
    await removeStaleTemps(this.path);
    const loaded = await loadStateFile(this.path, this.clock.now());
    this.saver = new StateSaver({
      delayMs: SAVE_DELAY_MS,
      retryMs: RETRY_DELAY_MS,
      capture: () => captureState(engine.state, engine.state.origin),
      write: (state) => writeStateFile(this.path, state),
      onError: (message) => this.log(`routeplane: cannot save breaker state to ${this.path}: ${message}`, 'error'),
    });
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
    await this.saver?.close();
  }

  /** The daemon never finished starting: no save, now or at close. */
  override async abandon(): Promise<void> {
    this.stop();
  }

  stop(): void {
    this.saver?.stop();
  }
}
