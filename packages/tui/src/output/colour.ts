import { Chalk, supportsColor, type ChalkInstance } from 'chalk';
import type { Env } from '@routeplane/shared';

/**
 * A chalk instance for one output stream. chalk itself ignores NO_COLOR, so
 * it is handled here: colour only when NO_COLOR is unset or empty
 * (no-color.org) and the stream is a terminal. `supported` is what the
 * terminal can show (chalk's own detection unless a caller knows better).
 */
export function colourFor(
  stream: { isTTY?: boolean },
  env: Env = process.env,
  supported: ChalkInstance['level'] = supportsColor ? supportsColor.level : 0,
): ChalkInstance {
  const wanted = !env.NO_COLOR && stream.isTTY === true;
  return new Chalk({ level: wanted ? supported : 0 });
}
