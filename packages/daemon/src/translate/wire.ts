/**
 * The three wire formats a generation request can travel in, and what a
 * translated attempt needs to know about its target. Anthropic Messages
 * (`POST /v1/messages`), OpenAI Chat Completions (`POST /v1/chat/completions`)
 * and OpenAI Responses (`POST /v1/responses`).
 */
export type Wire = 'messages' | 'chat' | 'responses';

export const WIRE_PATHS: Readonly<Record<Wire, string>> = {
  messages: '/v1/messages',
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
};

/** The wire of an inbound path (query string ignored); null for every path that is not a generation request. */
export function wireOfPath(url: string): Wire | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path === WIRE_PATHS.messages) return 'messages';
  if (path === WIRE_PATHS.chat) return 'chat';
  if (path === WIRE_PATHS.responses) return 'responses';
  return null;
}

/** What the request translation reads from the chain entry and its seat. */
export interface TranslationTarget {
  /** the target's model, written into the translated body */
  model: string;
  /** the chain entry's `max_output_tokens`: a larger ask is capped to it, and it is the ask when the agent set none */
  maxOutputTokens: number | null;
  /** the seat's `max_tokens_field` (chat targets): servers that only know `max_tokens` */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** ChatGPT's Codex backend (see `isCodexBackend`): always streamed, never stored, no output cap */
  codexBackend: boolean;
}

/** A seat whose `base_url` path ends in `/backend-api/codex` is ChatGPT's Codex backend, on any host. */
export function isCodexBackend(baseUrl: string): boolean {
  let path: string;
  try {
    path = new URL(baseUrl).pathname;
  } catch {
    return false;
  }
  return path.replace(/\/+$/, '').endsWith('/backend-api/codex');
}

/**
 * How the agent declared a tool that the target sees as a plain function,
 * so that a call of it goes back to the agent in the agent's own item type
 * (Responses agents only).
 */
export type DeclaredTool =
  | { kind: 'function'; name: string; namespace: string | null }
  | { kind: 'custom'; name: string; namespace: string | null }
  | { kind: 'local_shell' }
  | { kind: 'tool_search' };

/**
 * Everything the answer translation needs from the request, decided once by
 * `translateRequest`. Small: the proxy keeps it for the attempt.
 */
export interface AnswerPlan {
  agentWire: Wire;
  upstreamWire: Wire;
  /** the agent asked for a stream */
  agentStream: boolean;
  /** the upstream was asked for a stream (differs from `agentStream` only for the Codex backend) */
  upstreamStream: boolean;
  /** a chat agent's `stream_options.include_usage`: the usage chunk is sent only when asked */
  includeUsage: boolean;
  /** a Responses agent's tools by the name the target sees; null for other agents */
  declaredTools: ReadonlyMap<string, DeclaredTool> | null;
}
