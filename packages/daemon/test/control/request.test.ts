import { describe, expect, it } from 'vitest';
import { parseRequestLine } from '../../src/control/request.js';

describe('parseRequestLine', () => {
  it('accepts every command of the protocol', () => {
    for (const line of [
      '{"id":1,"cmd":"hello"}',
      '{"id":"a","cmd":"snapshot"}',
      '{"id":3,"cmd":"subscribe"}',
      '{"id":4,"cmd":"status"}',
      '{"id":5,"cmd":"reset"}',
      '{"id":6,"cmd":"reset","seat":"x"}',
      '{"id":7,"cmd":"reset","seat":"x","model":"m"}',
    ]) {
      const parsed = parseRequestLine(line);
      expect(parsed.ok, line).toBe(true);
    }
  });

  it('answers a line that is not JSON with id null and bad_request', () => {
    const parsed = parseRequestLine('{"id":1,"cmd":');
    expect(parsed).toMatchObject({ ok: false, reply: { id: null, ok: false, error: { code: 'bad_request' } } });
  });

  it('names an unknown command and keeps the id so the client can match the reply', () => {
    const parsed = parseRequestLine('{"id":9,"cmd":"reboot"}');
    expect(parsed).toMatchObject({ ok: false, reply: { id: 9, error: { code: 'unknown_command' } } });
    if (!parsed.ok) expect(parsed.reply.ok === false && parsed.reply.error.message).toContain('"reboot"');
  });

  it('rejects a model without a seat, unknown keys and a missing id', () => {
    const modelOnly = parseRequestLine('{"id":1,"cmd":"reset","model":"m"}');
    expect(modelOnly).toMatchObject({ ok: false, reply: { id: 1, error: { code: 'bad_request' } } });
    if (!modelOnly.ok && !modelOnly.reply.ok) expect(modelOnly.reply.error.message).toContain('model');

    const extra = parseRequestLine('{"id":2,"cmd":"hello","verbose":true}');
    expect(extra).toMatchObject({ ok: false, reply: { id: 2, error: { code: 'bad_request' } } });
    if (!extra.ok && !extra.reply.ok) expect(extra.reply.error.message).toContain('verbose');

    expect(parseRequestLine('{"cmd":"hello"}')).toMatchObject({ ok: false, reply: { id: null, error: { code: 'bad_request' } } });
    expect(parseRequestLine('[1,2]')).toMatchObject({ ok: false, reply: { id: null, error: { code: 'bad_request' } } });
  });
});
