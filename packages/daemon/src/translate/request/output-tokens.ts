/**
 * The output-token ask of a translated request: the agent's ask capped at
 * the target's `max_output_tokens`, or that cap when the agent asked none.
 * Null: nothing to send.
 */
export function outputTokenAsk(asked: unknown, cap: number | null): number | null {
  if (typeof asked === 'number' && Number.isFinite(asked)) return cap === null ? asked : Math.min(asked, cap);
  return cap;
}

/** The Messages API requires `max_tokens`: when neither the agent nor the target says, this much. */
export const MESSAGES_DEFAULT_MAX_TOKENS = 8192;
