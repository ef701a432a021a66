import type { MonitorState } from '../../../src/top/store/monitor-state.js';
import type { MonitorStore } from '../../../src/top/store/monitor-store.js';

/** Resolves with the store's state once it satisfies `test` (now or after a later update); rejects after `timeoutMs`. */
export function stateWhere(store: MonitorStore, test: (s: MonitorState) => boolean, timeoutMs = 4000): Promise<MonitorState> {
  return new Promise((resolve, reject) => {
    if (test(store.getState())) return resolve(store.getState());
    const timer = setTimeout(() => {
      off();
      const s = store.getState();
      reject(
        new Error(`condition not reached; connection ${JSON.stringify(s.connection)}, seq ${s.seq}, routes ${JSON.stringify(s.routes)}`),
      );
    }, timeoutMs);
    const off = store.subscribe(() => {
      if (test(store.getState())) {
        clearTimeout(timer);
        off();
        resolve(store.getState());
      }
    });
  });
}

/** `seat/model` of each entry of a route's chain, in the order shown. */
export function chainOf(s: MonitorState, route: string): string[] {
  return (s.routes.find((r) => r.route === route)?.chain ?? []).map((t) => `${t.seat}/${t.model}`);
}

export function entryOf(s: MonitorState, route: string, target: string) {
  return s.routes.find((r) => r.route === route)?.chain.find((t) => `${t.seat}/${t.model}` === target);
}
