import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Family } from '@routeplane/shared';
import type { AgentLink } from './agent-link.js';
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
  /** the `x-routeplane-decision` value, once the chain is ordered */
  decisionHeader: string | null;
}
