import type { Usage as MessagesUsage, MessageDeltaUsage } from '@anthropic-ai/sdk/resources/messages';
import type { Usage } from '@routeplane/shared';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ResponseUsage } from 'openai/resources/responses/responses';
import type { TokenUsage } from './answer.js';

/**
 * Usage arithmetic between the wires. Anthropic's `input_tokens` excludes
 * cached tokens; OpenAI's `prompt_tokens` / `input_tokens` include them
 * (`cached_tokens` is the part read from the cache).
 */

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

export function fromMessagesUsage(usage: Partial<MessagesUsage> | Partial<MessageDeltaUsage>): TokenUsage {
  return {
    input: count(usage.input_tokens),
    cacheRead: count(usage.cache_read_input_tokens),
    cacheWrite: count(usage.cache_creation_input_tokens),
    output: count(usage.output_tokens),
  };
}

/** The chat wire knows no cache writes: they are counted as 0. */
export function fromChatUsage(usage: Partial<CompletionUsage>): TokenUsage {
  const prompt = count(usage.prompt_tokens);
  const cached = Math.min(prompt, count(usage.prompt_tokens_details?.cached_tokens));
  return { input: prompt - cached, cacheRead: cached, cacheWrite: 0, output: count(usage.completion_tokens) };
}

export function fromResponsesUsage(usage: Partial<ResponseUsage>): TokenUsage {
  const input = count(usage.input_tokens);
  const cached = Math.min(input, count(usage.input_tokens_details?.cached_tokens));
  return { input: input - cached, cacheRead: cached, cacheWrite: 0, output: count(usage.output_tokens) };
}

export type MessagesAnswerUsage = Pick<
  MessagesUsage,
  'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens' | 'output_tokens'
>;

export function toMessagesUsage(usage: TokenUsage | null): MessagesAnswerUsage {
  const u = usage ?? ZERO;
  return {
    input_tokens: u.input,
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
    output_tokens: u.output,
  };
}

export type ChatAnswerUsage = Pick<CompletionUsage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens'> & {
  prompt_tokens_details: Pick<NonNullable<CompletionUsage['prompt_tokens_details']>, 'cached_tokens'>;
};

export function toChatUsage(usage: TokenUsage | null): ChatAnswerUsage {
  const u = usage ?? ZERO;
  const prompt = u.input + u.cacheRead + u.cacheWrite;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.output,
    total_tokens: prompt + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead },
  };
}

export type ResponsesAnswerUsage = Pick<ResponseUsage, 'input_tokens' | 'output_tokens' | 'total_tokens'> & {
  input_tokens_details: Pick<ResponseUsage.InputTokensDetails, 'cached_tokens'>;
  output_tokens_details: ResponseUsage.OutputTokensDetails;
};

export function toResponsesUsage(usage: TokenUsage | null): ResponsesAnswerUsage {
  const u = usage ?? ZERO;
  const input = u.input + u.cacheRead + u.cacheWrite;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + u.output,
  };
}

/**
 * The agent's figures as a decision records them (the same four counts the
 * usage reader takes from an untranslated answer of that family): OpenAI's
 * input includes the cached part, Anthropic's does not.
 */
export function agentUsage(family: 'anthropic' | 'openai', usage: TokenUsage | null): Usage | null {
  if (usage === null) return null;
  if (family === 'anthropic') {
    return {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_read_tokens: usage.cacheRead,
      cache_write_tokens: usage.cacheWrite,
    };
  }
  return {
    input_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
    output_tokens: usage.output,
    cache_read_tokens: usage.cacheRead,
    cache_write_tokens: null,
  };
}

const ZERO: TokenUsage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
