import type { ControlCommand, ResultByCommand, StreamedEvent } from '@routeplane/shared';
import type { CommandArgs } from '../../client/control-client.js';

/**
 * What the monitor needs from a control-socket connection. It is the subset of
 * `ControlClient` (../../client/control-client.ts) that `top` uses, written out
 * here so the store and the connection manager depend on a shape, not on a socket.
 */
export interface MonitorClient {
  request<C extends ControlCommand>(cmd: C, args?: CommandArgs<C>): Promise<ResultByCommand[C]>;
  /** Sends `subscribe`; resolves after the reply; every `{event}` line then goes to onEvent. */
  subscribe(onEvent: (event: StreamedEvent) => void): Promise<void>;
  /** Called once when the connection ends (daemon gone, overflow, close()). */
  onClose(listener: (error: Error | null) => void): void;
  close(): void;
}

/** Opens one connection to the daemon; rejects when it cannot. */
export type ConnectMonitorClient = () => Promise<MonitorClient>;
