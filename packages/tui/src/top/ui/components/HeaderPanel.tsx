import type { MonitorState } from '../../store/monitor-state.js';
import { headerLines } from '../lines/header-lines.js';
import { Lines } from './Lines.js';

/** Daemon URL, uptime, rates, influence on/off, and the connection in words. */
export function HeaderPanel({ state, width }: { state: MonitorState; width: number }) {
  return <Lines lines={headerLines(state, width)} />;
}
