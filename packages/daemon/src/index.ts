export { startDaemon, defaultSocketPath, defaultDecisionLogPath } from './start.js';
export type { StartOptions, RunningDaemon } from './start.js';
export type { DaemonContext } from './context.js';
export type { Clock } from './breaker/types.js';
