/**
 * Translation between wires: an agent speaking one wire served by a target
 * speaking another. Pure functions and incremental stream translators, no
 * I/O; the proxy calls them on translated attempts only.
 *
 * Per translated attempt the proxy:
 * 1. `translateRequest(agentWire, targetWire, agentBodyBytes, target)` (the
 *    target's `codexBackend` is `isCodexBackend(seat.base_url)`): the
 *    body to send (to the target wire's own path, `WIRE_PATHS`), the
 *    declared tools it dropped, whether the upstream is asked to stream,
 *    and the `plan` to keep for the answer. `ok: false` is `untranslatable`
 *    (skip the target, with the `detail`) or `invalid` (the body is not a
 *    valid request of the agent's wire; `detail` says where).
 * 2. On a 2xx answer:
 *    - `plan.upstreamStream`: `createStreamTranslator(plan, nowSeconds)`;
 *      every upstream chunk through `push` (write what it returns to the
 *      agent), `finish()` when the upstream body ends. `outcome` (also
 *      readable after each `push`): `complete`; `cut` (end the agent's
 *      stream with `fail(message)`, outcome `stream_error`); `upstream_error`
 *      or `bad_answer` (the agent's wire's error ending is already written).
 *      When the agent did not stream (`plan.agentStream` false, only for
 *      ChatGPT's Codex backend, which streams regardless) nothing is written
 *      until `finish()`, whose bytes are the whole JSON answer; any other
 *      outcome reached the agent with nothing, so it may fail over.
 *    - otherwise `translateJsonAnswer(plan, body, nowSeconds)`: the agent's
 *      body, or `ok: false` — a bad answer, a model error (outcome `bad_answer`).
 *    The usage in the agent's family's figures is `usage` of either; the
 *    usage reader over the translated bytes finds the same counts (a chat
 *    agent that did not ask for the usage chunk gets no usage in its bytes).
 * 3. On an error answer the agent gets: `translateErrorBody(agentWire,
 *    status, redactedBody)`.
 * Upstream bodies must arrive uncompressed (a translated attempt asks for
 * `accept-encoding: identity`), and a translated attempt to a messages
 * target sends `anthropic-version: 2023-06-01`.
 */
export { estimateInputTokens } from './estimate-tokens.js';
export { translateErrorBody } from './error-body.js';
export { type JsonAnswerTranslation, translateJsonAnswer } from './json-answer.js';
export { createStreamTranslator, type StreamOutcome, type StreamTranslator } from './stream-translator.js';
export { type RequestTranslation, translateRequest } from './translate-request.js';
export { type AnswerPlan, isCodexBackend, type TranslationTarget, WIRE_PATHS, type Wire, wireOfPath } from './wire.js';
