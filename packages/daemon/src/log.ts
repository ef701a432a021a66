/**
 * The daemon's own lines — not events: a reload said, a state file set aside,
 * a decision log that cannot be written, a shared store degraded. Each says
 * how much it matters, so `serve --quiet` can keep only the errors.
 */
export type LogLevel = 'info' | 'error';

export type DaemonLog = (line: string, level: LogLevel) => void;
