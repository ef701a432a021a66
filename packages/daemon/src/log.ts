/**
 * The daemon's own lines — not events: a reload said, a state file set aside,
 * a decision log that cannot be written, a shared store degraded. Each says
 * how much it matters, so `serve --quiet` can keep only the errors.
 */
export type LogLevel = 'info' | 'error';

/**
 * What a line is also said by: `store`, a line about the shared store's state,
 * which a `store` event says too — so a reader that writes the events (`serve
 * --log json`) leaves the line out rather than say one change twice.
 */
export type LogTopic = 'store';

export type DaemonLog = (line: string, level: LogLevel, topic?: LogTopic) => void;
