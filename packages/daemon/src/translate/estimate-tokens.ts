/**
 * A local `count_tokens` answer for a route with no Anthropic target:
 * ⌈B / 4⌉, B the UTF-8 bytes of the request's `system`, `messages` and
 * `tools` (those present), each written as compact JSON. Roughly four bytes
 * a token for English and code; an estimate, and the answer says so.
 */
export function estimateInputTokens(body: Buffer): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return 0;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return 0;
  const request = parsed as Record<string, unknown>;
  let bytes = 0;
  for (const key of ['system', 'messages', 'tools'] as const) {
    const value = request[key];
    if (value !== undefined) bytes += Buffer.byteLength(JSON.stringify(value));
  }
  return Math.ceil(bytes / 4);
}
