import type { MonitorState } from '../../store/monitor-state.js';
import { headerLines } from '../lines/header-lines.js';
import { Lines } from './Lines.js';

/** Daemon URL, uptime, rates, influence, store, the connection in words — and, in the demo, the scene. */
export function HeaderPanel({ state, width, scene }: { state: MonitorState; width: number; scene: string | null }) {
  return <Lines lines={headerLines(state, width, scene)} />;
}
