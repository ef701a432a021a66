import type { IncomingHttpHeaders } from 'node:http';

/** Why a simulated provider refuses a request it cannot serve at all; each family words it its own way (scenario trouble: ./signals.ts). */
export type RefusalKind = 'auth' | 'not_found' | 'bad_request';

export interface ReplyMeta {
  id: string;
  model: string;
  promptTokens: number;
}

/**
 * One provider family's wire format, as pure text builders. The simulated
 * server picks one by seat provider and never formats anything itself.
 */
export interface WireFormat {
  readonly family: 'anthropic' | 'openai';
  /** the inbound path this family answers (query strings ignored) */
  readonly path: string;
  /** null when the request carries `key` the way this provider wants it */
  authProblem(headers: IncomingHttpHeaders, key: string): string | null;
  /** what else a real provider insists on (e.g. anthropic-version); null when fine */
  headerProblem(headers: IncomingHttpHeaders): string | null;
  errorBody(kind: RefusalKind, status: number, message: string): string;
  json(meta: ReplyMeta, tokens: readonly string[]): string;
  streamHead(meta: ReplyMeta): string;
  streamDelta(meta: ReplyMeta, text: string): string;
  streamTail(meta: ReplyMeta, outputTokens: number, body: Record<string, unknown>): string;
}

/** One SSE frame; `event` is omitted for OpenAI-style data-only streams. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`;
}
