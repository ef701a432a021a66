import { z } from 'zod';
import type { HelloResult, ProbeResult, ResetResult, Snapshot, StatusSummary } from './snapshot.js';
import type { DecisionEvent } from './events.js';

/**
 * The control protocol: newline-delimited JSON over a unix socket, one
 * object per line. Every request carries an `id` and gets exactly one reply.
 */

const requestId = z.union([z.string().max(200), z.number()]);

/** The most decisions `recent` returns: the daemon keeps a ring of this many. */
export const RECENT_MAX = 500;

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
  z.strictObject({
    id: requestId,
    cmd: z.literal('probe'),
    seat: z.string().min(1),
    model: z.string().min(1).optional(),
  }),
  // "the last ≤ 500 decisions": a larger n gets what the ring holds, not an error; n < 1 asks for nothing sensible
  z.strictObject({ id: requestId, cmd: z.literal('recent'), n: z.number().int().min(1).optional() }),
  z.strictObject({ id: requestId, cmd: z.literal('reload') }),
]);

export type ControlRequest = z.infer<typeof controlRequestSchema>;
export type ControlCommand = ControlRequest['cmd'];
export type RequestId = z.infer<typeof requestId>;

/** Every command a daemon answers (the compiler holds this to the schema), for the error naming them. */
const COMMAND_NAMES: Record<ControlCommand, true> = {
  hello: true,
  snapshot: true,
  subscribe: true,
  status: true,
  reset: true,
  probe: true,
  recent: true,
  reload: true,
};
export const CONTROL_COMMANDS = Object.keys(COMMAND_NAMES) as ControlCommand[];

export interface ResultByCommand {
  hello: HelloResult;
  snapshot: Snapshot;
  subscribe: { subscribed: true };
  status: StatusSummary;
  reset: ResetResult;
  probe: ProbeResult;
  recent: { decisions: DecisionEvent[] };
  reload: ReloadResult;
}

export interface ReloadResult {
  /** what changed, in words ("routes: sonnet added", …); empty when the file was unchanged */
  changes: string[];
}

export type ControlErrorCode =
  | 'bad_request'
  | 'unknown_command'
  | 'line_too_long'
  | 'influence_disabled'
  | 'unknown_seat'
  | 'unknown_target'
  | 'bad_config'
  | 'internal';

export interface ControlError {
  code: ControlErrorCode;
  message: string;
}

export type ControlReply = { id: RequestId | null; ok: true; result: unknown } | { id: RequestId | null; ok: false; error: ControlError };

/** Longest control line accepted, in characters; past it the connection is closed. */
export const MAX_LINE_CHARS = 1024 * 1024;
