import { CONTROL_COMMANDS, controlRequestSchema, type ControlReply, type ControlRequest, type RequestId } from '@routeplane/shared';

export type ParsedLine = { ok: true; request: ControlRequest } | { ok: false; reply: ControlReply };

/**
 * One control line → a valid request, or the error reply it deserves. Pure.
 * When the line is JSON with a usable `id`, the error carries that id so the
 * client can match it; otherwise `id: null`.
 */
export function parseRequestLine(line: string): ParsedLine {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    return fail(null, 'bad_request', `malformed JSON: ${(err as Error).message}`);
  }
  const parsed = controlRequestSchema.safeParse(raw);
  if (parsed.success) return { ok: true, request: parsed.data };

  const id = usableId(raw);
  const cmd = isObject(raw) ? raw.cmd : undefined;
  if (typeof cmd === 'string' && !(CONTROL_COMMANDS as readonly string[]).includes(cmd)) {
    return fail(id, 'unknown_command', `unknown command ${JSON.stringify(cmd)} (expected one of ${CONTROL_COMMANDS.join(', ')})`);
  }
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'request';
    return issue.code === 'unrecognized_keys' ? `${where}: unknown key(s) ${issue.keys.join(', ')}` : `${where}: ${issue.message}`;
  });
  return fail(id, 'bad_request', problems.join('; '));
}

function fail(id: RequestId | null, code: 'bad_request' | 'unknown_command', message: string): ParsedLine {
  return { ok: false, reply: { id, ok: false, error: { code, message } } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function usableId(raw: unknown): RequestId | null {
  if (!isObject(raw)) return null;
  const id = raw.id;
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  if (typeof id === 'string' && id.length <= 200) return id;
  return null;
}
