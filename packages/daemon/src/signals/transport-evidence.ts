import type { Evidence } from './evidence.js';
import { ABORTED } from './evidence.js';

/**
 * Evidence of an attempt that got no answer to classify: a timeout, a
 * refused or reset connection, or a broken stream is a model error; an
 * agent that hung up is no evidence. There is no
 * upstream word to quote, so no signal.
 */
export function transportEvidence(failure: 'timeout' | 'network' | 'stream_error' | 'aborted'): Evidence {
  return failure === 'aborted' ? ABORTED : MODEL_ERROR;
}

const MODEL_ERROR: Evidence = Object.freeze({ class: 'model_error', signal: null });
