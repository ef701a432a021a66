export { connectControl, DaemonNotRunningError, ControlRequestError } from './client/control-client.js';
export type { ControlClient, ConnectOptions } from './client/control-client.js';
export { resolveSocketPath, findClientConfig, ClientConfigError } from './client/socket-path.js';
export type { ClientConfig } from './client/socket-path.js';
