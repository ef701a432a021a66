/**
 * `anthropic-beta` on its way to a seat (docs/seats.md, a seat's `headers`):
 * the seat's values are added to the agent's, never put in their place, so
 * a seat can add a beta without deleting the agent's own. `oauth-2025-04-20`
 * belongs to the agent's login: it is taken out of the agent's value before
 * the request goes to a seat that is not the agent's login, unless that seat
 * asks for it itself.
 */

export const OAUTH_BETA = 'oauth-2025-04-20';

/** What a seat does to the agent's `anthropic-beta`. */
export interface BetaRule {
  /** the seat's own values, trimmed, each once, in the order configured */
  readonly seatValues: readonly string[];
  /** take `oauth-2025-04-20` out of the agent's value */
  readonly dropAgentOauth: boolean;
}

/** The seat's rule, or null when the agent's value goes as it came. */
export function betaRule(seatValue: string | undefined, passthrough: boolean): BetaRule | null {
  const seatValues = seatValue === undefined ? [] : betaValues(seatValue);
  const dropAgentOauth = !passthrough && !seatValues.includes(OAUTH_BETA);
  return seatValues.length === 0 && !dropAgentOauth ? null : { seatValues, dropAgentOauth };
}

/**
 * The header to send: the agent's values first, then the seat's, each once,
 * trimmed, joined with `,`; undefined when none is left. An agent value the
 * rule does not change goes as the agent wrote it.
 */
export function mergeBeta(agent: string | string[] | undefined, rule: BetaRule): string | undefined {
  const text = Array.isArray(agent) ? agent.join(',') : agent;
  if (rule.seatValues.length === 0 && (text === undefined || !text.includes(OAUTH_BETA))) return text;
  const out: string[] = [];
  const add = (value: string): void => {
    if (!out.includes(value)) out.push(value);
  };
  for (const value of text === undefined ? [] : betaValues(text)) if (!(rule.dropAgentOauth && value === OAUTH_BETA)) add(value);
  for (const value of rule.seatValues) add(value);
  return out.length === 0 ? undefined : out.join(',');
}

function betaValues(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',')) {
    const value = part.trim();
    if (value !== '' && !out.includes(value)) out.push(value);
  }
  return out;
}
