import type { Lane, LaneName } from '@routeplane/shared';

/**
 * The request's lane: header `x-routeplane-lane`, else the
 * agent's lane, else the route's, else foreground. A header with any other
 * value is refused (400 naming the header), never guessed.
 */
export type LaneChoice = { ok: true; lane: Lane } | { ok: false; message: string };

export const LANE_HEADER = 'x-routeplane-lane';

export function chooseLane(header: string | string[] | undefined, agentLane: LaneName | null, routeLane: LaneName | null): LaneChoice {
  if (header !== undefined) {
    const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
    if (value === 'foreground' || value === 'background') return { ok: true, lane: value };
    return { ok: false, message: `header ${LANE_HEADER} must be "foreground" or "background"` };
  }
  return { ok: true, lane: agentLane ?? routeLane ?? 'foreground' };
}
