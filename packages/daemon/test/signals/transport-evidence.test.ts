import { describe, expect, it } from 'vitest';
import { transportEvidence } from '../../src/signals/transport-evidence.js';

describe('an attempt without an answer', () => {
  it.each(['timeout', 'network', 'stream_error'] as const)('%s is a model error with no signal', (failure) => {
    expect(transportEvidence(failure)).toEqual({ class: 'model_error', signal: null });
  });

  it('an agent that hung up is no evidence at all', () => {
    expect(transportEvidence('aborted')).toEqual({ class: 'aborted' });
  });
});
