/**
 * A fake Anthropic seat that answers Claude Code the way the Messages API
 * does (streamed and not, with usage), and drives a short agent loop so each
 * session makes several requests: while the conversation holds fewer than
 * `toolTurns` tool results it asks for the harmless `Read` tool on a file the
 * test made, then it answers with text. A request from a prompt hook (Claude
 * Code's small/fast model judging a condition) gets the JSON verdict such a
 * hook expects.
 *
 * A seat can run out while an agent works (`runsOutOn`): from the first
 * request the predicate picks, every request gets the seat's exhausted
 * answer — by default the 400 "credit balance is too low" that Anthropic
 * sends an empty prepaid account.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Behaviour, RecordedRequest } from '../../../daemon/test/helpers/fake-upstream.js';
import { anthropic } from '../../../daemon/test/signals/fixtures.js';

export interface ClaudeCodeSeatOptions {
  /** the file each `Read` asks for */
  readFile: string;
  /** how many tool rounds before the final text */
  toolTurns: number;
  /** the final answer's text */
  finalText: string;
  /** from the first request this returns true for, the seat is exhausted */
  runsOutOn?: (req: RecordedRequest) => boolean;
  /** what an exhausted seat answers */
  exhausted?: ExhaustedAnswer;
}

export interface ExhaustedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An empty prepaid account: anthropic-sdk-typescript#618, claude-code#4207. */
export const CREDIT_TOO_LOW: ExhaustedAnswer = { status: 400, headers: {}, body: anthropic.creditTooLow };

/** A Claude subscription whose 5-hour window is used up, until `resetEpochSeconds`. */
export function windowUsedUp(resetEpochSeconds: number): ExhaustedAnswer {
  const reset = String(resetEpochSeconds);
  return {
    status: 429,
    headers: {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': reset,
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': reset,
      'anthropic-ratelimit-unified-5h-utilization': '1.0',
      'x-should-retry': 'true',
    },
    body: anthropic.accountRateLimit,
  };
}

export interface ClaudeCodeSeat {
  readonly behaviour: Behaviour;
  /** true once the seat ran out */
  ranOut(): boolean;
}

export function claudeCodeSeat(opts: ClaudeCodeSeatOptions): ClaudeCodeSeat {
  let empty = false;
  const behaviour: Behaviour = (req, res) => {
    const path = req.url.split('?')[0];
    if (req.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) {
      return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `Not Found: ${req.method} ${path}` } });
    }
    if (!empty && opts.runsOutOn?.(req) === true) empty = true;
    if (empty) {
      const answer = opts.exhausted ?? CREDIT_TOO_LOW;
      return sendRaw(res, answer.status, answer.body, answer.headers);
    }
    if (path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: inputTokens(req) });
    // ids are unique across seats, as the API's are: Claude Code merges assistant turns that share a message id
    const id = `msg_01${randomId(22)}`;
    const model = String(req.json?.model);
    const content: Block[] = isHookEvaluation(req)
      ? [{ type: 'text', text: '{"ok": true, "reason": "the transcript shows the task finished"}' }]
      : toolResults(req) < opts.toolTurns && offersTool(req, 'Read')
        ? [{ type: 'tool_use', id: `toolu_01${randomId(22)}`, name: 'Read', input: { file_path: opts.readFile } }]
        : [{ type: 'text', text: opts.finalText }];
    const stopReason = content[0]!.type === 'tool_use' ? 'tool_use' : 'end_turn';
    const usage = { input_tokens: inputTokens(req), output_tokens: 11, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (req.json?.stream === true) return sendStream(res, id, model, content, stopReason, usage);
    return sendJson(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
  };
  return { behaviour, ranOut: () => empty };
}

/** How many tool results the conversation holds: the agent loop's turn. */
export function toolResults(req: RecordedRequest): number {
  let count = 0;
  for (const message of messages(req)) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type?: unknown }>) if (block.type === 'tool_result') count += 1;
  }
  return count;
}

/** A prompt hook's request: Claude Code's small/fast model asked to judge a condition. */
export function isHookEvaluation(req: RecordedRequest): boolean {
  return /You are evaluating a (stop-condition )?hook/.test(JSON.stringify(req.json?.system ?? ''));
}

function randomId(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

function messages(req: RecordedRequest): Array<{ role?: unknown; content?: unknown }> {
  const list = req.json?.messages;
  return Array.isArray(list) ? list : [];
}

function offersTool(req: RecordedRequest, name: string): boolean {
  const tools = req.json?.tools;
  return Array.isArray(tools) && tools.some((tool: { name?: unknown }) => tool.name === name);
}

/** A stand-in count that moves with the prompt's size, as the real one does. */
function inputTokens(req: RecordedRequest): number {
  return Math.max(1, Math.round(req.body.length / 4));
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: object };

function sendStream(
  res: ServerResponse,
  id: string,
  model: string,
  content: Block[],
  stopReason: string,
  usage: { output_tokens: number },
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': `req_${id}` });
  const event = (name: string, data: object) => res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`);
  event('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('ping', {});
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  event('message_stop', {});
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  sendRaw(res, status, JSON.stringify(body));
}

function sendRaw(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': 'req_011CRpFakeSeat',
    ...headers,
  });
  res.end(text);
}
