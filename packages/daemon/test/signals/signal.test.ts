import { describe, expect, it } from 'vitest';
import { plainText, redact } from '../../src/signals/plain-text.js';
import { buildSignal } from '../../src/signals/signal.js';
import type { UpstreamError } from '../../src/signals/upstream-error.js';

/** The provenance of an answer: the signal, as people read it. */

function error(fields: Partial<UpstreamError>): UpstreamError {
  return {
    type: null,
    status: null,
    code: null,
    detailsErrorCode: null,
    message: null,
    resetsAt: undefined,
    resetsInSeconds: undefined,
    retryDelay: undefined,
    ...fields,
  };
}

describe('the signal', () => {
  it('type is error.type, else error.status (Google)', () => {
    expect(buildSignal(429, error({ type: 'rate_limit_error', status: 'X' }), null, []).type).toBe('rate_limit_error');
    expect(buildSignal(429, error({ status: 'RESOURCE_EXHAUSTED' }), null, []).type).toBe('RESOURCE_EXHAUSTED');
  });

  it('code is error.code, else error.details.error_code; a number in decimal', () => {
    expect(buildSignal(429, error({ code: 'insufficient_quota', detailsErrorCode: 'x' }), null, []).code).toBe('insufficient_quota');
    expect(buildSignal(429, error({ detailsErrorCode: 'enforced_spend_limit_reached' }), null, []).code).toBe(
      'enforced_spend_limit_reached',
    );
    expect(buildSignal(402, error({ code: 402 }), null, []).code).toBe('402');
    expect(buildSignal(500, error({ detailsErrorCode: 1234567 }), null, []).code).toBe('1234567');
  });

  it('all null without an error body', () => {
    expect(buildSignal(503, null, null, ['k'])).toEqual({ status: 503, type: null, code: null, header: null, message: null });
  });

  it('the message is cut to 200 characters, the cut marked', () => {
    const message = buildSignal(500, error({ message: 'x'.repeat(500) }), null, []).message!;
    expect(message).toHaveLength(200);
    expect(message.endsWith('…')).toBe(true);
    expect(buildSignal(500, error({ message: 'y'.repeat(200) }), null, []).message).toBe('y'.repeat(200));
  });

  it('a cut never leaves half a surrogate pair', () => {
    const message = buildSignal(500, error({ message: `${'a'.repeat(198)}😀😀` }), null, []).message!;
    expect(message).toBe(`${'a'.repeat(198)}…`);
  });

  it('never names a credential header, whatever set the deadline', () => {
    for (const name of ['authorization', 'Authorization', 'x-api-key', 'cookie', 'set-cookie', 'proxy-authorization']) {
      expect(buildSignal(429, null, `${name}: secret`, []).header).toBeNull();
    }
    expect(buildSignal(429, null, 'retry-after: 5', []).header).toBe('retry-after: 5');
  });

  it('redacts every secret from every string, before cutting', () => {
    const key = 'sk-live-0123456789abcdef';
    const s = buildSignal(401, error({ type: key, code: key, message: `${'m'.repeat(189)} ${key}` }), `retry-after: ${key}`, [key]);
    expect(JSON.stringify(s)).not.toContain('0123456789');
    expect(s.message).toBe(`${'m'.repeat(189)} [redacted]`);
  });
});

describe('plain text', () => {
  it('removes control characters and bidirectional overrides; line breaks become spaces', () => {
    expect(plainText('a\u0000b\u007fc\u009bd\u202ee\u2066f', [], 100)).toBe('abcdef');
    expect(plainText('one\r\ntwo\tthree', [], 100)).toBe('one two three');
  });

  it('is null when nothing is left', () => {
    expect(plainText('\u0000 \n', [], 100)).toBeNull();
  });

  it('redacts a key split by a control character', () => {
    expect(plainText('sk-ab\u0000cd', ['sk-abcd'], 100)).toBe('[redacted]');
  });

  it('redacts a longer secret before a shorter one it contains; ignores empty secrets', () => {
    expect(redact('token abcdef', ['abc', 'abcdef', ''])).toBe('token [redacted]');
  });
});
