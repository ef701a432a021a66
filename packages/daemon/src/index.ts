export { startDaemon } from './start.js';
export { defaultSocketPath, defaultDecisionLogPath } from '@routeplane/shared';
export type { StartOptions, RunningDaemon } from './start.js';
export type { DaemonContext } from './context.js';
export type { Clock } from './breaker/types.js';
export type { DaemonLog, LogLevel, LogTopic } from './log.js';
