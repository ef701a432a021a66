/** What a reset names: everything, one seat (and its models), or one target. */
export type ResetRequest =
  | { readonly scope: 'all' }
  | { readonly scope: 'seat'; readonly seat: string }
  | { readonly scope: 'target'; readonly seat: string; readonly model: string };

/** The answer to a reset, as a value: the screen shows either as a transient message. */
export type ResetOutcome =
  | { readonly ok: true; readonly cleared: number }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** The request's arguments in the control protocol's terms. */
export function resetArgs(request: ResetRequest): { seat?: string; model?: string } | undefined {
  switch (request.scope) {
    case 'all':
      return undefined;
    case 'seat':
      return { seat: request.seat };
    case 'target':
      return { seat: request.seat, model: request.model };
  }
}

/** How a person reads the request, e.g. in a confirm question: `seat work-max`. */
export function describeReset(request: ResetRequest): string {
  switch (request.scope) {
    case 'all':
      return 'every breaker';
    case 'seat':
      return `seat ${request.seat}`;
    case 'target':
      return `target ${request.seat}/${request.model}`;
  }
}
