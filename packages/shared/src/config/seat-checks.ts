import { seatAuth, sendsSeatKey } from './seat-auth.js';
import type { Config } from './schema.js';
import type { RawIssue } from './yaml-document.js';

/**
 * A seat's key goes with its `auth`: `x-api-key` and `bearer` send one (so
 * `api_key_env` must name it), `passthrough` and `none` never do (so an
 * `api_key_env` there would read as configured and be ignored). Run once the
 * schema passed: an `auth` that failed it must not be taken for the default.
 */
export function seatChecks(config: Config): RawIssue[] {
  const issues: RawIssue[] = [];
  config.seats.forEach((seat, i) => {
    const auth = seatAuth(seat);
    const path = ['seats', i, 'api_key_env'];
    if (sendsSeatKey(auth) && seat.api_key_env === undefined) {
      issues.push({ path: ['seats', i], message: `api_key_env is required: auth ${auth} sends the seat's key from that variable` });
    } else if (auth === 'passthrough' && seat.api_key_env !== undefined) {
      issues.push({ path, message: "a passthrough seat uses the agent's own credentials; remove api_key_env" });
    } else if (auth === 'none' && seat.api_key_env !== undefined) {
      issues.push({ path, message: 'a seat with auth none sends no credentials; remove api_key_env' });
    }
  });
  return issues;
}
