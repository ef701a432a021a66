import type { Signal } from '@routeplane/shared';
import { plainText } from './plain-text.js';
import { codeText, type UpstreamError } from './upstream-error.js';

/**
 * The provenance of one answer:
 * what the upstream said, in its own words, made safe to show. Every string
 * comes from the upstream, so each one is stripped of control characters,
 * redacted of every secret and capped.
 */

/** spec: "error.message, at most 200 characters"; the other fields get the same cap so a hostile body cannot bloat events */
const MAX_CHARS = 200;

/** Headers that carry credentials: never named in a signal, whatever set the deadline. */
const NEVER_NAMED: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'cookie', 'set-cookie']);

export function buildSignal(status: number | null, error: UpstreamError | null, header: string | null, secrets: readonly string[]): Signal {
  return {
    status,
    type: text(error?.type ?? error?.status ?? null, secrets),
    code: text(codeText(error?.code ?? error?.detailsErrorCode ?? null), secrets),
    header: header === null ? null : headerText(header, secrets),
    message: text(error?.message ?? null, secrets),
  };
}

function text(value: string | null, secrets: readonly string[]): string | null {
  return value === null ? null : plainText(value, secrets, MAX_CHARS);
}

/** `name: value`, or null when the name is a credential header. */
function headerText(header: string, secrets: readonly string[]): string | null {
  const colon = header.indexOf(':');
  const name = (colon === -1 ? header : header.slice(0, colon)).trim().toLowerCase();
  return NEVER_NAMED.has(name) ? null : text(header, secrets);
}
