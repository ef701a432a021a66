/** Assertions on what an agent receives: the families' error shapes, routeplane's headers, a broken stream's last event. */
import { expect } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
export type Json = any;

/** OpenAI's error shape: `{"error": {message, type, code}}` with nothing else at the top. */
export function expectOpenAiError(body: Json, code?: string): void {
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toEqual({ message: expect.any(String), type: expect.any(String), code: code ?? expect.any(String) });
  expect(body.error.message.length).toBeGreaterThan(0);
}

/** Anthropic's error shape: `{"type": "error", "error": {type, message}}`. */
export function expectAnthropicError(body: Json, type?: string): void {
  expect(body).toEqual({ type: 'error', error: { type: type ?? expect.any(String), message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
}

/** The routeplane headers of a proxied answer. */
export function expectRouteplaneHeaders(res: Response, attempts: number, target: string | null): void {
  expect(res.headers.get('x-routeplane-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers.get('x-routeplane-attempts')).toBe(String(attempts));
  expect(res.headers.get('x-routeplane-target')).toBe(target);
}

/** Splits an SSE text into its events (blank-line separated), keeping their raw text. */
export function sseEvents(text: string): string[] {
  return text.split('\n\n').filter((e) => e !== '');
}

/** The data of the SSE event that ends a broken stream: OpenAI `data: {...}`, Anthropic `event: error` then data. */
export function streamErrorData(text: string, family: 'openai' | 'anthropic'): Json {
  const last = sseEvents(text).at(-1) ?? '';
  const lines = last.split('\n');
  if (family === 'anthropic') {
    expect(lines[0]).toBe('event: error');
    return JSON.parse(lines[1]!.slice('data: '.length));
  }
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!.slice('data: '.length));
}
