import type { SnapshotTarget } from '@routeplane/shared';
import { seg } from '../../../output/segment.js';
import { fit, textWidth, truncate } from '../../../output/text.js';
import type { RouteView } from '../../store/derive-view.js';
import { cell, clipLine, line, type Line } from './line.js';
import { STATE_GLYPH, stateDetail, stateTone, reasonWords } from './state-words.js';

/**
 * The chains panel's rows: each route with its targets in the order a request
 * starting now would try them, one target per row:
 *
 *   ›sonnet    ● healthy personal/claude-sonnet-4-5
 *              ✗ credit  work-max/claude-sonnet-4-5   probe in 42s
 *    opus      ✗ credit  work-max/claude-opus-4-1     probe in 42s
 *    fail-open ✗ errors  personal/claude-opus-4-1     probe in 9s
 *
 * Row order is try order (no position numbers: they would cost the target
 * column two places). Columns are as wide as their widest entry; only the
 * target column gives way on a narrow screen, ending in `…`.
 */
export function chainRowKey(route: string, target: { seat: string; model: string }): string {
  return `chain:${route}:${target.seat}/${target.model}`;
}

const ROUTE_MAX = 18;
/** said under a route whose targets are all tripped (requests run the configured order) */
const FAIL_OPEN = 'fail-open';

export function chainLines(routes: readonly RouteView[], options: { width: number; now: number; selectedKey: string | null }): Line[] {
  const { width, now, selectedKey } = options;
  const rows = routes.flatMap((route) => route.chain.map((target, index) => ({ route, target, index })));
  if (rows.length === 0) return [];
  const words = rows.map((r) => reasonWords(r.target.state, r.target.reasons));
  const details = rows.map((r) => stateDetail(r.target.state, r.target.reasons, r.target.until, now));
  const saysFailOpen = routes.some((r) => r.failOpen && r.chain.length > 1);
  const routeW = Math.min(ROUTE_MAX, Math.max(...routes.map((r) => textWidth(r.route)), saysFailOpen ? FAIL_OPEN.length : 0));
  const wordW = Math.max(...words.map(textWidth));
  const detailW = Math.max(...details.map(textWidth));
  const fixed = 1 + routeW + 1 + 2 + wordW + 1 + (detailW > 0 ? 2 + detailW : 0);
  const targetNames = rows.map((r) => targetName(r.target));
  const targetW = Math.max(4, Math.min(Math.max(...targetNames.map(textWidth)), width - fixed));

  return rows.map((row, i) => {
    const { route, target, index } = row;
    const key = chainRowKey(route.route, target);
    const selected = key === selectedKey;
    const tone = stateTone(target.state, target.reasons);
    const routeCell =
      index === 0
        ? seg(fit(route.route, routeW), 'title')
        : index === 1 && route.failOpen
          ? seg(fit(FAIL_OPEN, routeW), 'warn')
          : seg(' '.repeat(routeW));
    const segments = [
      seg(selected ? '›' : ' ', 'key'),
      routeCell,
      seg(' '),
      seg(`${STATE_GLYPH[target.state]} `, tone),
      seg(fit(words[i]!, wordW), tone),
      seg(' '),
    ];
    const nameTone = selected ? 'selected' : target.state === 'drained' ? 'muted' : 'plain';
    if (details[i]) segments.push(...cell(targetNames[i]!, targetW, nameTone), seg('  '), seg(details[i]!, tone));
    else segments.push(seg(truncate(targetNames[i]!, targetW), nameTone));
    return clipLine(line(segments, key), width);
  });
}

function targetName(target: SnapshotTarget): string {
  return `${target.seat}/${target.model}`;
}
