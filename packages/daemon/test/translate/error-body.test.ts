/** Upstream error bodies rewritten in the agent's family shape: the message kept, the type from the status. */
import { describe, expect, it } from 'vitest';
import { translateErrorBody } from '../../src/translate/index.js';

const anthropicBody = (type: string, message: string) =>
  Buffer.from(JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_1' }));
const openaiBody = (message: string, type: string, code: string | null) =>
  Buffer.from(JSON.stringify({ error: { message, type, param: null, code } }));

const json = (buf: Buffer) => JSON.parse(buf.toString());

describe('error bodies toward an Anthropic agent', () => {
  it('takes its type from the status', () => {
    const cases: Array<[number, string]> = [
      [400, 'invalid_request_error'],
      [401, 'authentication_error'],
      [402, 'billing_error'],
      [403, 'permission_error'],
      [404, 'not_found_error'],
      [413, 'request_too_large'],
      [422, 'invalid_request_error'],
      [429, 'rate_limit_error'],
      [500, 'api_error'],
      [502, 'api_error'],
      [503, 'overloaded_error'],
      [529, 'overloaded_error'],
    ];
    for (const [status, type] of cases) {
      expect(json(translateErrorBody('messages', status, openaiBody('m', 'requests', 'rate_limit_exceeded'))), String(status)).toEqual({
        type: 'error',
        error: { type, message: 'm' },
      });
    }
  });

  it("keeps OpenAI's message, whatever its own type said", () => {
    const body = openaiBody(
      'You exceeded your current quota, please check your plan and billing details.',
      'insufficient_quota',
      'insufficient_quota',
    );
    expect(json(translateErrorBody('messages', 429, body))).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'You exceeded your current quota, please check your plan and billing details.' },
    });
  });
});

describe('error bodies toward an OpenAI agent', () => {
  it("type by status; code is the upstream's own type", () => {
    expect(json(translateErrorBody('chat', 529, anthropicBody('overloaded_error', 'Overloaded')))).toEqual({
      error: { message: 'Overloaded', type: 'server_error', code: 'overloaded_error' },
    });
    expect(
      json(
        translateErrorBody(
          'responses',
          429,
          anthropicBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
        ),
      ),
    ).toEqual({
      error: {
        message: 'Number of request tokens has exceeded your per-minute rate limit',
        type: 'rate_limit_error',
        code: 'rate_limit_error',
      },
    });
    expect(json(translateErrorBody('chat', 400, anthropicBody('invalid_request_error', 'prompt is too long')))).toEqual({
      error: { message: 'prompt is too long', type: 'invalid_request_error', code: 'invalid_request_error' },
    });
  });

  it("code prefers an OpenAI upstream's code to its type", () => {
    expect(
      json(translateErrorBody('responses', 404, openaiBody('The model `x` does not exist', 'invalid_request_error', 'model_not_found'))),
    ).toEqual({
      error: { message: 'The model `x` does not exist', type: 'invalid_request_error', code: 'model_not_found' },
    });
  });

  it('reads other shapes servers answer with, and bodies that are not JSON', () => {
    expect(json(translateErrorBody('chat', 400, Buffer.from('{"detail":"Not Found"}')))).toEqual({
      error: { message: 'Not Found', type: 'invalid_request_error', code: null },
    });
    expect(json(translateErrorBody('chat', 500, Buffer.from('{"error":"model crashed","code":500}')))).toEqual({
      error: { message: 'model crashed', type: 'server_error', code: '500' },
    });
    expect(json(translateErrorBody('messages', 502, Buffer.from('<html>Bad Gateway</html>\n')))).toEqual({
      type: 'error',
      error: { type: 'api_error', message: '<html>Bad Gateway</html>' },
    });
    expect(json(translateErrorBody('messages', 503, Buffer.alloc(0)))).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'the upstream answered 503' },
    });
  });
});
