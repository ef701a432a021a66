import type { IncomingHttpHeaders } from 'node:http';

/**
 * The secrets an answer to one request must not echo: the daemon's own (seat
 * keys, header values from the environment, agent tokens) and, once the
 * request goes to a seat that is the agent's own login, that login — its
 * `authorization` (whole, and the token after the scheme), `x-api-key` and
 * `chatgpt-account-id`. An upstream that echoes the credential it was sent
 * then finds it redacted from relayed headers, error bodies and signals,
 * like a seat key.
 */
export interface RequestSecrets {
  readonly strings: readonly string[];
  /** the same as bytes, for searching bodies */
  readonly needles: readonly Buffer[];
}

/** Shorter values are not credentials (an agent's "unused"); redacting them would only shred bodies. */
const SHORTEST_SECRET = 8;

/** The daemon's secrets plus the agent's login, as it sent it. */
export function withLogin(daemon: RequestSecrets, headers: IncomingHttpHeaders): RequestSecrets {
  const found: string[] = [];
  const add = (value: string | string[] | undefined): void => {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      const text = v.trim();
      if (text.length >= SHORTEST_SECRET && !found.includes(text)) found.push(text);
      // the token after the scheme: what an upstream quotes back ("invalid bearer token sk-…")
      const space = text.indexOf(' ');
      if (space !== -1) add(text.slice(space + 1));
    }
  };
  add(headers.authorization);
  add(headers['x-api-key']);
  add(headers['chatgpt-account-id']);
  if (found.length === 0) return daemon;
  // longest first: a whole `Bearer …` goes before the token inside it
  found.sort((a, b) => b.length - a.length);
  return { strings: [...found, ...daemon.strings], needles: [...found.map((s) => Buffer.from(s)), ...daemon.needles] };
}
