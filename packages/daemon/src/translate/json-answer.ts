import type { Usage } from '@routeplane/shared';
import { answerReader, answerWriter } from './answer/wires.js';
import type { AnswerPlan } from './wire.js';

/** `ok: false` is a bad answer: the attempt failed as a model error (outcome `bad_answer`), and nothing reached the agent. */
export type JsonAnswerTranslation = { ok: true; body: Buffer; usage: Usage | null } | { ok: false; message: string };

/** A whole (non-streamed) 2xx upstream answer, rewritten in the agent's wire; `created` (epoch seconds) where the agent's wire needs a time. */
export function translateJsonAnswer(plan: AnswerPlan, upstreamBody: Buffer, created: number): JsonAnswerTranslation {
  let parsed: unknown;
  try {
    parsed = JSON.parse(upstreamBody.toString('utf8'));
  } catch {
    return { ok: false, message: 'the upstream answer is not JSON' };
  }
  const answer = answerReader(plan.upstreamWire)(parsed);
  if ('ok' in answer) return answer;
  const written = answerWriter(plan, created)(answer);
  if ('ok' in written) return written;
  return { ok: true, body: Buffer.from(written.text), usage: written.usage };
}
