// What translating an agent's request and its streamed answer costs, per
// request, beside the cheapest thing the proxy could do with the same body
// (parse and write it back once): Claude Code's 110 KB request onto a Chat
// Completions seat and the ~200-event answer that seat streams back, and
// Codex's 38 KB Responses request onto a Claude seat and the ~200-event
// answer it streams back, every chunk through the stream translator.
import { bench, describe } from 'vitest';
import {
  type AnswerPlan,
  createStreamTranslator,
  type TranslationTarget,
  translateRequest,
} from '../../packages/daemon/src/translate/index.js';
import { claudeCodeChatAnswer, claudeCodeRequest } from '../../packages/daemon/test/translate/fixtures/claude-code.js';
import { codexMessagesAnswer, codexRequest } from '../../packages/daemon/test/translate/fixtures/codex.js';

const CREATED = 1_767_225_600;

function target(model: string): TranslationTarget {
  return { model, maxOutputTokens: null, maxTokensField: 'max_completion_tokens', codexBackend: false };
}

function planOf(agentWire: AnswerPlan['agentWire'], upstreamWire: AnswerPlan['upstreamWire'], body: Buffer, model: string): AnswerPlan {
  const result = translateRequest(agentWire, upstreamWire, body, target(model));
  if (!result.ok) throw new Error(`translation bench: ${result.detail}`);
  return result.plan;
}

function stream(plan: AnswerPlan, chunks: readonly Buffer[]): void {
  const translator = createStreamTranslator(plan, CREATED);
  for (const chunk of chunks) translator.push(chunk);
  if (translator.finish().outcome.end !== 'complete') throw new Error('translation bench: the answer did not complete');
}

const claudeCode = claudeCodeRequest();
const claudeCodeAnswer = claudeCodeChatAnswer();
const claudeCodePlan = planOf('messages', 'chat', claudeCode, 'gpt-5');
const codex = codexRequest();
const codexAnswer = codexMessagesAnswer();
const codexPlan = planOf('responses', 'messages', codex, 'claude-sonnet-4-5');

describe('translation', () => {
  bench('Claude Code request, 110 KB: parse and write back (reference)', () => {
    if (JSON.stringify(JSON.parse(claudeCode.toString('utf8'))).length === 0) throw new Error('empty');
  });

  bench('Claude Code request, 110 KB: translate to chat', () => {
    planOf('messages', 'chat', claudeCode, 'gpt-5');
  });

  bench('Claude Code answer, 200 chat events → messages stream', () => {
    stream(claudeCodePlan, claudeCodeAnswer);
  });

  bench('Codex request, 38 KB: parse and write back (reference)', () => {
    if (JSON.stringify(JSON.parse(codex.toString('utf8'))).length === 0) throw new Error('empty');
  });

  bench('Codex request, 38 KB: translate to messages', () => {
    planOf('responses', 'messages', codex, 'claude-sonnet-4-5');
  });

  bench('Codex answer, 200 messages events → responses stream', () => {
    stream(codexPlan, codexAnswer);
  });
});
