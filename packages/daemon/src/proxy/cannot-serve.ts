import type { DaemonErrorKind } from './error-shapes.js';
import type { RequestSkip } from './request-skips.js';

/**
 * The answer when every target this request could have gone to was skipped
 * for the request's own sake (request-skips.ts): 401 when each was a login
 * the request carried no credentials for — the agent must log in — else 400,
 * naming each target and why.
 */
export function cannotServe(route: string, skips: readonly RequestSkip[]): { kind: DaemonErrorKind; message: string } {
  const kind = skips.every((s) => s.reason === 'no_credentials') ? 'unauthorized' : 'bad_request';
  // two targets on one login seat are one reason
  return { kind, message: `route ${JSON.stringify(route)}: ${[...new Set(skips.map(skipWords))].join('; ')}` };
}

function skipWords(skip: RequestSkip): string {
  switch (skip.reason) {
    case 'no_credentials':
      return `seat ${JSON.stringify(skip.target.seat)} uses the agent's own login, and the request carried no credentials`;
  }
}
