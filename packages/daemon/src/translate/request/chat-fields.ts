import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import type { Lazy } from '../json/read-json.js';
import { given, untranslatable } from './cannot-translate.js';

/** Top-level fields of a chat request that the Messages and Responses mappings read. */
const READ = new Set([
  'model',
  'messages',
  'max_completion_tokens',
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'stream',
  'stream_options',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'n',
  'response_format',
  'modalities',
  'prompt_cache_key',
  'reasoning_effort',
  'verbosity',
]);

/** Sampling, logging, billing and storage settings only OpenAI's chat endpoint has: dropped. */
const DROPPED = new Set([
  'user',
  'seed',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'frequency_penalty',
  'presence_penalty',
  'store',
  'metadata',
  'prompt_cache_retention',
  'prompt_cache_options',
  'service_tier',
  'safety_identifier',
  'prediction',
  'moderation',
]);

/**
 * The first part of a chat request no other wire can carry: more than one
 * choice, audio, the legacy functions, a field this does not know (a new
 * field is named, never silently dropped).
 */
export function refuseChatOnlyParts(body: Lazy<ChatCompletionCreateParamsBase>): void {
  for (const key of Object.keys(body)) {
    if (READ.has(key) || DROPPED.has(key)) continue;
    if (key === 'functions' || key === 'function_call') untranslatable('functions/function_call (legacy)');
    if (key === 'audio') untranslatable('audio output');
    untranslatable(`field ${key}`);
  }
  if (given(body.n) && body.n !== 1) untranslatable(`n=${body.n}`);
  if (given(body.modalities) && body.modalities.includes('audio')) untranslatable('audio output');
}
