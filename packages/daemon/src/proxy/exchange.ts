import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Family } from '@routeplane/shared';
import type { AgentLink } from './agent-link.js';
import type { RequestSecrets } from './login-secrets.js';
import type { RequestSkip } from './request-skips.js';
import type { Span } from './top-level-scan.js';

/** One agent request on its way through the chain. */
export interface Exchange {
  readonly requestId: string;
  readonly family: Family;
  /** the inbound path with its query string, forwarded unchanged */
  readonly url: string;
  readonly agentHeaders: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly model: string;
  readonly modelSpan: Span;
  /** whether the agent is still there; cancels the attempt in flight when it hangs up */
  readonly agent: AgentLink;
  readonly res: ServerResponse;
  /** the targets this request cannot be sent to (request-skips.ts): in the decision's chain, never tried */
  readonly skipped: readonly RequestSkip[];
  /** the `x-routeplane-decision` value, once the chain is ordered */
  decisionHeader: string | null;
  /** every secret an answer to this request must not echo: the daemon's, and the agent's own login once a login seat is tried */
  secrets: RequestSecrets | null;
}
