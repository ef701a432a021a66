import { MemoryStore } from '../breaker/store.js';
import type { InfluenceEngine } from '../breaker/engine.js';
import { applyRestoration, captureState, restoration } from '../breaker/saved-state.js';
import type { Clock } from '../breaker/types.js';
import { loadStateFile, removeStaleTemps } from './read.js';
import { StateSaver } from './saver.js';
import { writeStateFile } from './write.js';

/** Changes gathered before one save: well within the 1 s the spec allows, and a burst of trips costs one write. */
const SAVE_DELAY_MS = 100;
const RETRY_DELAY_MS = 5000;

/**
 * Breakers kept in this daemon's memory and in `influence.state_file`
 * (spec/lanes.md "State that survives a restart"). The engine tells its store
 * of every transition and streak change (breaker/store.ts): here each one
 * schedules a save, and `close` — the daemon's shutdown — makes the last.
 */
export class StateFileStore extends MemoryStore {
  private saver: StateSaver | null = null;

  constructor(
    readonly path: string,
    private readonly clock: Clock,
  ) {
    super(clock.now());
  }

  /**
   * Loads the file into `engine` and starts saving; returns how many breakers
   * came back. Problems with the file are said through `log`, never thrown.
   */
  async open(engine: InfluenceEngine, log: (line: string) => void): Promise<number> {
    await removeStaleTemps(this.path);
    const loaded = await loadStateFile(this.path, this.clock.now());
    this.saver = new StateSaver({
      delayMs: SAVE_DELAY_MS,
      retryMs: RETRY_DELAY_MS,
      capture: () => captureState(engine.state, engine.state.origin),
      write: (state) => writeStateFile(this.path, state),
      onError: (message) => log(`routeplane: cannot save breaker state to ${this.path}: ${message}`),
    });
    switch (loaded.kind) {
      case 'missing':
        return 0;
      case 'set_aside':
        log(`routeplane: state file ${this.path} is ${loaded.why}: moved it to ${loaded.movedTo}, starting with no breakers`);
        return 0;
      case 'stuck':
        log(
          `routeplane: state file ${this.path} is ${loaded.why} and cannot be moved aside (${loaded.moveError}): starting with no breakers`,
        );
        return 0;
      case 'loaded': {
        const { state } = engine;
        const r = restoration(loaded.state, state.topology, state.limits, state.clock.now());
        applyRestoration(engine, r);
        // what the rules dropped leaves the file with the next save, even if nothing else changes
        if (r.dropped.length > 0) this.saver.changed();
        return r.breakers.length;
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

  /** The daemon never finished starting: no save. */
  stop(): void {
    this.saver?.stop();
  }
}
