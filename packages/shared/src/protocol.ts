import { z } from 'zod';
import type { HelloResult, ResetResult, Snapshot, StatusSummary } from './snapshot.js';
import type { StreamedEvent } from './events.js';

/**
 * The control protocol: newline-delimited JSON over a unix socket, one
 * object per line. Every request carries an `id` and gets exactly one reply.
 */

const requestId = z.union([z.string().max(200), z.number()]);

export const controlRequestSchema = z.discriminatedUnion('cmd', [
  z.strictObject({ id: requestId, cmd: z.literal('hello') }),
  z.strictObject({ id: requestId, cmd: z.literal('snapshot') }),
  z.strictObject({ id: requestId, cmd: z.literal('subscribe') }),
  z.strictObject({ id: requestId, cmd: z.literal('status') }),
  z
    .strictObject({
      id: requestId,
      cmd: z.literal('reset'),
      seat: z.string().min(1).optional(),
      model: z.string().min(1).optional(),
    })
    .refine((r) => r.model === undefined || r.seat !== undefined, {
      message: 'reset: model needs a seat',
      path: ['model'],
    }),
]);

export type ControlRequest = z.infer<typeof controlRequestSchema>;
export type ControlCommand = ControlRequest['cmd'];
export type RequestId = z.infer<typeof requestId>;

export interface ResultByCommand {
  hello: HelloResult;
  snapshot: Snapshot;
  subscribe: { subscribed: true };
  status: StatusSummary;
  reset: ResetResult;
}

export type ControlErrorCode =
  | 'bad_request'
  | 'unknown_command'
  | 'line_too_long'
  | 'influence_disabled'
  | 'unknown_seat'
  | 'unknown_target'
  | 'internal';

export interface ControlError {
  code: ControlErrorCode;
  message: string;
}

export type ControlReply = { id: RequestId | null; ok: true; result: unknown } | { id: RequestId | null; ok: false; error: ControlError };

/** A line from the daemon: a reply to a request, or a streamed event. */
export type ServerLine = ControlReply | { event: StreamedEvent };

/** Longest control line accepted, in characters; past it the connection is closed. */
export const MAX_LINE_CHARS = 1024 * 1024;
