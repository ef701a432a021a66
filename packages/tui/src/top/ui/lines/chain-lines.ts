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
 *   ›sonnet       ● healthy personal/claude-sonnet-5
 *                 ✗ credit  work-max/claude-sonnet-5   probe in 42s
 *    opus         ✗ credit  work-max/claude-opus-4-1     probe in 42s
 *    fail-open    ✗ errors  personal/claude-opus-4-1     probe in 9s
 *    haiku spread ● healthy seat-b/claude-haiku-4-5      share 62%
 *                 ● healthy seat-a/claude-haiku-4-5      share 38%
 *                 ○ drained seat-c/claude-haiku-4-5
 *
 * Row order is try order. A spread route says `spread` on its name's row
 * (sessions are spread over the targets; each target's share of the route's
 * sessions in the last 5 minutes is shown): that row exists for every route,
 * so the word is there however few targets it has. Under a route's name the
 * next row says `fail-open` when every target is held back (the configured
 * order is tried). A target held back by a transition another daemon made
 * (through a shared store) says where it came from,
 * `(from host-b:4812)`, at the end of its row when there is room whole.
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

/** The word under a route's name, on its second row (a one-target route failing open needs no word: its one row says it). */
function routeTag(route: RouteView): string | null {
  return route.failOpen && route.chain.length > 1 ? FAIL_OPEN : null;
}

/** What a route's first row shows in the route column: its name, and `spread` after it for a spread route. */
function routeLabel(route: RouteView): string {
  return route.balance === 'spread' ? `${route.route} ${SPREAD}` : route.route;
}

/** Cuts of a route label: a spread route's name is cut, its `spread` kept whole, so the word never goes. */
function labelCuts(spreadLabels: ReadonlySet<string>) {
  return (label: string, width: number): string[] => {
    if (!spreadLabels.has(label)) return middleCuts(label, width);
    const suffix = ` ${SPREAD}`;
    const name = label.slice(0, -suffix.length);
    return middleCuts(name, Math.max(1, width - textWidth(suffix))).map((cut) => cut + suffix);
  };
}

function shareText(shares: RouteShares | undefined, route: RouteView, target: SnapshotTarget): string {
  if (route.balance !== 'spread' || target.state === 'drained') return '';
  const share = shares?.get(route.route)?.get(`${target.seat}/${target.model}`) ?? 0;
  return `share ${Math.round(share * 100)}%`;
}

export function chainLines(routes: readonly RouteView[], options: ChainLineOptions): Line[] {
  const { width, clock, selectedKey } = options;
  const rows = routes.flatMap((route) => {
    const tag = routeTag(route);
    return route.chain.map((target, index) => ({ route, target, index, tag: index === 1 ? tag : null }));
  });
  if (rows.length === 0) return [];
  const words = rows.map((r) => reasonWords(r.target.state, r.target.reasons));
  const details = rows.map((r) => stateDetail(r.target.state, r.target.reasons, r.target.until, clock));
  const shares = rows.map((r) => shareText(options.shares, r.route, r.target));
  const targetNames = rows.map((r) => targetName(r.target));

  const wordW = Math.max(...words.map(textWidth));
  const shareW = Math.max(0, ...shares.map(textWidth));
  const detailW = Math.max(0, ...details.map(textWidth));
  const labels = routes.map(routeLabel);
  const wantRouteW = Math.max(...labels.map(textWidth), ...rows.map((r) => (r.tag ? textWidth(r.tag) : 0)));
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
  const spreadLabels = new Set(routes.filter((r) => r.balance === 'spread').map(routeLabel));
  const shownRoute = distinctCuts(labels, routeW, labelCuts(spreadLabels));

  return rows.map((row, i) => {
    const { route, target, index, tag } = row;
    const key = chainRowKey(route.route, target);
    const selected = key === selectedKey;
    const drained = target.state === 'drained';
    const tone = stateTone(target.state, target.reasons);
    const routeCells =
      index === 0
        ? routeNameCell(shownRoute.get(routeLabel(route)) ?? routeLabel(route), route, routeW)
        : tag
          ? [seg(fit(tag, routeW), 'warn')]
          : [seg(' '.repeat(routeW))];
    const segments: Segment[] = [
      seg(selected ? '›' : ' ', 'key'),
      ...routeCells,
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
    const from = route.from.get(targetNames[i]!);
    if (from !== undefined) addWhenRoom(segments, seg(`  (from ${from})`, 'muted'), width);
    return clipLine(line(segments, key), width);
  });
}

/** `extra` at the end of the row only when it fits whole: it never takes room from names or countdowns. */
function addWhenRoom(segments: Segment[], extra: Segment, width: number): void {
  const used = segments.reduce((n, s) => n + textWidth(s.text), 0);
  if (used + textWidth(extra.text) <= width) segments.push(extra);
}

/** The route's name in the title tone; a spread route's `spread` after it in the info tone. */
function routeNameCell(shown: string, route: RouteView, width: number): Segment[] {
  const suffix = ` ${SPREAD}`;
  if (route.balance !== 'spread' || !shown.endsWith(suffix)) return [seg(fit(shown, width), 'title')];
  const name = shown.slice(0, -suffix.length);
  return [seg(name, 'title'), seg(fit(suffix, width - textWidth(name)), 'info')];
}

function targetName(target: SnapshotTarget): string {
  return `${target.seat}/${target.model}`;
}
