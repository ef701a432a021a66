import type { ControlCommand, ResultByCommand, StreamedEvent } from '@routeplane/shared';
import type { MonitorClient } from '../../../src/top/source/monitor-client.js';

/**
 * A stand-in for the daemon's control socket in component tests: it hands
 * out clients that record every request and answer from `answers`, and lets
 * the test stream events and drop connections. (The end-to-end test in
 * e2e-tmux.test.ts talks to the real daemon.)
 */
export interface RecordedRequest {
  readonly cmd: ControlCommand;
  readonly args: { seat?: string; model?: string } | undefined;
}

type Answers = { [C in ControlCommand]?: (args: { seat?: string; model?: string } | undefined) => ResultByCommand[C] };

export class FakeClient implements MonitorClient {
  private onEvent: ((event: StreamedEvent) => void) | null = null;
  private readonly closeListeners: ((error: Error | null) => void)[] = [];
  closed = false;

  constructor(private readonly daemon: FakeDaemon) {}

  request<C extends ControlCommand>(cmd: C, args?: { seat?: string; model?: string }): Promise<ResultByCommand[C]> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    this.daemon.requests.push({ cmd, args });
    const answer = this.daemon.answers[cmd] as ((a: typeof args) => ResultByCommand[C]) | undefined;
    if (!answer) return Promise.reject(Object.assign(new Error(`no answer for ${cmd}`), { code: 'unknown_command' }));
    return Promise.resolve().then(() => answer(args));
  }

  async subscribe(onEvent: (event: StreamedEvent) => void): Promise<void> {
    this.onEvent = onEvent;
    await this.request('subscribe');
  }

  onClose(listener: (error: Error | null) => void): void {
    this.closeListeners.push(listener);
  }

  close(): void {
    this.end(null);
  }

  emit(event: StreamedEvent): void {
    if (!this.closed) this.onEvent?.(event);
  }

  end(error: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener(error);
  }
}

export class FakeDaemon {
  readonly requests: RecordedRequest[] = [];
  readonly clients: FakeClient[] = [];
  up = true;
  /** connection attempts refused while down */
  refused = 0;

  constructor(public answers: Answers) {}

  connect = async (): Promise<MonitorClient> => {
    if (!this.up) this.refused += 1;
    if (!this.up) throw Object.assign(new Error('routeplane daemon is not running (no socket at /tmp/fake.sock)'), { code: 'ENOENT' });
    const client = new FakeClient(this);
    this.clients.push(client);
    return client;
  };

  /** The newest connection (the live one, once connected). */
  get client(): FakeClient {
    const client = this.clients.at(-1);
    if (!client) throw new Error('no client connected yet');
    return client;
  }

  emit(event: StreamedEvent): void {
    this.client.emit(event);
  }

  /** The daemon goes away: every connection ends and new ones are refused. */
  stop(): void {
    this.up = false;
    for (const client of this.clients) client.end(new Error('daemon stopped'));
  }

  requestsOf(cmd: ControlCommand): RecordedRequest[] {
    return this.requests.filter((r) => r.cmd === cmd);
  }
}
