import { useSyncExternalStore } from 'react';
import type { MonitorState } from '../../store/monitor-state.js';
import type { MonitorStore } from '../../store/monitor-store.js';

/** The store's state; React re-renders only when a flush or the tick produced a new one. */
export function useMonitorState(store: MonitorStore): MonitorState {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
