import type { Family } from '@routeplane/shared';

/**
 * The inbound path picks the protocol family.
 * Query strings are ignored for matching: Claude Code posts `/v1/messages?beta=true`.
 */
export function familyOfPath(url: string): Family {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path === '/v1/messages' || path === '/v1/messages/count_tokens' ? 'anthropic' : 'openai';
}
