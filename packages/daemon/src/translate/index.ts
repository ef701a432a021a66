/**
 * Translation between wires: an agent speaking one wire served by a target
 * speaking another. Pure functions, no I/O; the proxy calls them on
 * translated attempts only.
 */
export { type RequestTranslation, translateRequest } from './translate-request.js';
export { type AnswerPlan, isCodexBackend, type TranslationTarget, WIRE_PATHS, type Wire, wireOfPath } from './wire.js';
