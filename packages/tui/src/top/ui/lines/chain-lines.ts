import type { SnapshotTarget } from '@routeplane/shared';
import { seg, type Segment, type Tone } from '../../../output/segment.js';
import { distinctCuts, fit, middleCuts, targetCuts, textWidth } from '../../../output/text.js';
import type { RouteView } from '../../store/derive-view.js';
import type { RouteShares } from '../../store/session-shares.js';
import { cell, clipLine, line, type Line } from './line.js';
import { type CountdownClock, STATE_GLYPH, stateDetail, stateTone, reasonWords } from './state-words.js';

/**
 * The chains panel's rows: each route with its targets in the order a request
 * starting now would try them, one target per row:
 *
 *   ›sonnet    ● healthy personal/claude-sonnet-5
 *              ✗ credit  work-max/claude-sonnet-5   probe in 42s
 *    opus      ✗ credit  work-max/claude-opus-4-1     probe in 42s
 *    fail-open ✗ errors  personal/claude-opus-4-1     probe in 9s
 *    haiku     ● healthy seat-b/claude-haiku-4-5      share 62%
 *    spread    ● healthy seat-a/claude-haiku-4-5      share 38%
 *              ○ drained seat-c/claude-haiku-4-5
 *
 * Row order is try order. Under a route's name its rows say what applies to
 * the whole route: `fail-open` (every target is held back: the configured
 * order is tried) and `spread` (sessions are spread over the targets; each
 * target's share of the route's sessions in the last 5 minutes is shown).
 * Drained targets (weight 0) are dimmed. Names get the width there is; only
 * when the line would not fit are they cut, with `…`, never so that two
 * names look the same.
 */
export function chainRowKey(route: string, target: { seat: string; model: string }): string {
  return `chain:${route}:${target.seat}/${target.model}`;
}

const FAIL_OPEN = 'fail-open';
const SPREAD = 'spread';
/** the narrowest a cut target or route name gets before the detail gives way instead */
const TARGET_MIN = 16;
const ROUTE_MIN = 8;

export interface ChainLineOptions {
  readonly width: number;
  readonly clock: CountdownClock;
  readonly selectedKey: string | null;
  readonly shares?: RouteShares;
}

/** The words under a route's name, one per row after its first. */
function routeTags(route: RouteView): string[] {
  const tags: string[] = [];
  if (route.failOpen && route.chain.length > 1) tags.push(FAIL_OPEN);
  if (route.balance === 'spread') tags.push(SPREAD);
  return tags;
}

function shareText(shares: RouteShares | undefined, route: RouteView, target: SnapshotTarget): string {
  if (route.balance !== 'spread' || target.state === 'drained') return '';
  const share = shares?.get(route.route)?.get(`${target.seat}/${target.model}`) ?? 0;
  return `share ${Math.round(share * 100)}%`;
}

export function chainLines(routes: readonly RouteView[], options: ChainLineOptions): Line[] {
  const { width, clock, selectedKey } = options;
  const rows = routes.flatMap((route) => {
    const tags = routeTags(route);
    return route.chain.map((target, index) => ({ route, target, index, tag: index === 0 ? null : (tags[index - 1] ?? null) }));
  });
  if (rows.length === 0) return [];
  const words = rows.map((r) => reasonWords(r.target.state, r.target.reasons));
  const details = rows.map((r) => stateDetail(r.target.state, r.target.reasons, r.target.until, clock));
  const shares = rows.map((r) => shareText(options.shares, r.route, r.target));
  const targetNames = rows.map((r) => targetName(r.target));

  const wordW = Math.max(...words.map(textWidth));
  const shareW = Math.max(0, ...shares.map(textWidth));
  const detailW = Math.max(0, ...details.map(textWidth));
  const wantRouteW = Math.max(...routes.map((r) => textWidth(r.route)), ...rows.map((r) => (r.tag ? textWidth(r.tag) : 0)));
  const wantTargetW = Math.max(...targetNames.map(textWidth));
  const extras = (shareW > 0 ? 2 + shareW : 0) + (detailW > 0 ? 2 + detailW : 0);
  // what is left for the two names once glyphs, words, shares and countdowns have theirs
  const fixed = 1 + 1 + 2 + wordW + 1 + extras;
  let routeW = wantRouteW;
  let targetW = wantTargetW;
  const over = fixed + routeW + targetW - width;
  if (over > 0) {
    targetW = Math.max(Math.min(TARGET_MIN, wantTargetW), wantTargetW - over);
    const still = fixed + routeW + targetW - width;
    if (still > 0) routeW = Math.max(Math.min(ROUTE_MIN, wantRouteW), routeW - still);
  }
  const shownTarget = distinctCuts(targetNames, targetW, targetCuts);
  const shownRoute = distinctCuts(
    routes.map((r) => r.route),
    routeW,
    middleCuts,
  );

  return rows.map((row, i) => {
    const { route, target, index, tag } = row;
    const key = chainRowKey(route.route, target);
    const selected = key === selectedKey;
    const drained = target.state === 'drained';
    const tone = stateTone(target.state, target.reasons);
    const routeCell =
      index === 0
        ? seg(fit(shownRoute.get(route.route) ?? route.route, routeW), 'title')
        : tag
          ? seg(fit(tag, routeW), tag === FAIL_OPEN ? 'warn' : 'info')
          : seg(' '.repeat(routeW));
    const segments: Segment[] = [
      seg(selected ? '›' : ' ', 'key'),
      routeCell,
      seg(' '),
      seg(`${STATE_GLYPH[target.state]} `, tone),
      seg(fit(words[i]!, wordW), tone),
      seg(' '),
    ];
    const nameTone: Tone = selected ? 'selected' : drained ? 'muted' : 'plain';
    const name = shownTarget.get(targetNames[i]!) ?? targetNames[i]!;
    const tail: Segment[] = [];
    if (shareW > 0 && (shares[i] || details[i])) tail.push(seg('  '), seg(fit(shares[i]!, shareW), 'info'));
    if (details[i]) tail.push(seg('  '), seg(details[i]!, tone));
    if (tail.length > 0) segments.push(...cell(name, targetW, nameTone), ...tail);
    else segments.push(seg(name, nameTone));
    return clipLine(line(segments, key), width);
  });
}

function targetName(target: SnapshotTarget): string {
  return `${target.seat}/${target.model}`;
}
