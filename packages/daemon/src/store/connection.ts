import { createHash } from 'node:crypto';
import { createClient } from '@redis/client';
import type { RedisEndpoint } from '@routeplane/shared';

/**
 * The two connections to Redis — one for commands, one subscribed to the
 * channel (a subscribed connection takes no other commands) — and running a
 * script under a deadline. No command waits in an offline queue: while the
 * connection is down every call fails at once, and the store goes on with
 * local state. Reconnection is the client's, every 200 ms at most, so a
 * Redis that comes back is found well within the 2 s a daemon may take to notice.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; why: string };

export interface Script {
  readonly lua: string;
  readonly sha: string;
}

export function script(lua: string): Script {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

const RECONNECT_MAX_MS = 200;
/** a command the deadline gave up on is also dropped from the client's queue after this */
const QUEUE_TIMEOUT_MS = 2_000;

type Client = ReturnType<typeof createClient>;

export interface ConnectionEvents {
  ready(which: 'commands' | 'channel'): void;
  lost(which: 'commands' | 'channel', why: string): void;
}

export class Connection {
  readonly commands: Client;
  readonly channel: Client;

  constructor(endpoint: RedisEndpoint, password: string | null, events: ConnectionEvents) {
    const socket = {
      host: endpoint.host,
      port: endpoint.port,
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(25 * 2 ** retries, RECONNECT_MAX_MS),
    };
    const options = {
      socket: endpoint.tls ? { ...socket, tls: true as const } : socket,
      database: endpoint.db,
      ...(endpoint.username === null ? {} : { username: endpoint.username }),
      ...(password === null ? {} : { password }),
      disableOfflineQueue: true,
      commandsQueueMaxLength: 10_000,
    };
    this.commands = createClient({ ...options, commandOptions: { timeout: QUEUE_TIMEOUT_MS } });
    this.channel = createClient(options);
    for (const [which, client] of [
      ['commands', this.commands],
      ['channel', this.channel],
    ] as const) {
      client.on('ready', () => events.ready(which));
      client.on('error', (err: unknown) => events.lost(which, describeError(err)));
      client.on('end', () => events.lost(which, 'connection closed'));
      client.on('reconnecting', () => events.lost(which, 'reconnecting'));
    }
  }

  get ready(): boolean {
    return this.commands.isReady && this.channel.isReady;
  }

  /** Starts connecting both; never throws, never waits (the events say how it goes). */
  open(): void {
    this.commands.connect().catch(() => {});
    this.channel.connect().catch(() => {});
  }

  /** Runs a script within `deadlineMs`; a failure or a timeout is a value, never a throw. */
  async run(s: Script, args: readonly string[], deadlineMs: number): Promise<Outcome<unknown>> {
    const call = async (): Promise<unknown> => {
      try {
        return await this.commands.evalSha(s.sha, { arguments: [...args] });
      } catch (err) {
        // a Redis that restarted has forgotten the script: send it whole once
        if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return this.commands.eval(s.lua, { arguments: [...args] });
        throw err;
      }
    };
    return within(call(), deadlineMs);
  }

  async subscribe(channel: string, onMessage: (text: string) => void, deadlineMs: number): Promise<Outcome<void>> {
    return within(
      this.channel.subscribe(channel, (message: string) => onMessage(message)),
      deadlineMs,
    );
  }

  close(): void {
    for (const client of [this.commands, this.channel]) {
      try {
        client.destroy();
      } catch {
        // never connected: nothing to close
      }
    }
  }
}

async function within<T>(work: Promise<T>, deadlineMs: number): Promise<Outcome<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, why: `no answer within ${deadlineMs} ms` }), deadlineMs);
  });
  const done = work.then(
    (value): Outcome<T> => ({ ok: true, value }),
    (err: unknown): Outcome<T> => ({ ok: false, why: describeError(err) }),
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error in a few words. Redis errors never carry the password; the store redacts every line anyway. */
export function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return describeError(err.errors[0]);
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.replace(/\s+/g, ' ').slice(0, 160);
}
