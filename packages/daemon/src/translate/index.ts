/**
 * Translation between wires: an agent speaking one wire served by a target
 * speaking another. Pure functions and incremental stream translators, no
 * I/O; the proxy calls them on translated attempts only.
 */
export { type JsonAnswerTranslation, translateJsonAnswer } from './json-answer.js';
export { createStreamTranslator, type StreamOutcome, type StreamTranslator } from './stream-translator.js';
export { type RequestTranslation, translateRequest } from './translate-request.js';
export { type AnswerPlan, isCodexBackend, type TranslationTarget, WIRE_PATHS, type Wire, wireOfPath } from './wire.js';
