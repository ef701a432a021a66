// What translating an agent's request and its streamed answer costs, per
// request, beside the cheapest thing the proxy could do with the same body
// (parse and write it back once): Claude Code's 110 KB request onto a Chat
// Completions seat, parsed and translated, and the ~200-event answer that
// seat streams back, every chunk through the stream translator.
import { bench, describe } from 'vitest';
import { createStreamTranslator, type TranslationTarget, translateRequest } from '../../packages/daemon/src/translate/index.js';
import { claudeCodeChatAnswer, claudeCodeRequest } from '../../packages/daemon/test/translate/fixtures/claude-code.js';

const CHAT_TARGET: TranslationTarget = {
  model: 'gpt-5',
  maxOutputTokens: null,
  maxTokensField: 'max_completion_tokens',
  codexBackend: false,
};
const claudeCode = claudeCodeRequest();
const chatAnswer = claudeCodeChatAnswer();
const chatToMessages = {
  agentWire: 'messages',
  upstreamWire: 'chat',
  agentStream: true,
  upstreamStream: true,
  includeUsage: false,
  declaredTools: null,
} as const;

describe('translation', () => {
  bench('Claude Code request, 110 KB: parse and write back (reference)', () => {
    if (JSON.stringify(JSON.parse(claudeCode.toString('utf8'))).length === 0) throw new Error('empty');
  });

  bench('Claude Code request, 110 KB: parse, translate to chat', () => {
    const result = translateRequest('messages', 'chat', claudeCode, CHAT_TARGET);
    if (!result.ok) throw new Error(`translation bench: ${result.detail}`);
  });

  bench('Claude Code answer, 200 chat events → messages stream', () => {
    const translator = createStreamTranslator(chatToMessages, 1_767_225_600);
    for (const chunk of chatAnswer) translator.push(chunk);
    if (translator.finish().outcome.end !== 'complete') throw new Error('translation bench: the answer did not complete');
  });
});
