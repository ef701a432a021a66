import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RefusalKind, ReplyMeta, WireFormat } from './wire.js';

/** The small HTTP chores of a simulated seat: reading a body, waiting, refusing. */

const MAX_BODY_BYTES = 4 * 1024 * 1024;

export function refuse(
  res: ServerResponse,
  wire: WireFormat,
  kind: RefusalKind,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): number {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(wire.errorBody(kind, status, message));
  return status;
}

export function requestIdHeader(wire: WireFormat, meta: ReplyMeta): Record<string, string> {
  return wire.family === 'anthropic' ? { 'request-id': `req_${meta.id.slice(9)}` } : { 'x-request-id': `req_${meta.id.slice(12)}` };
}

/** Waits `ms`; false when the caller went away (or the seat is closing) meanwhile. */
export async function pause(ms: number, gone: AbortSignal): Promise<boolean> {
  if (gone.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal: gone });
    return true;
  } catch {
    return false;
  }
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
