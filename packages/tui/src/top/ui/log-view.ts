/**
 * Where the decision log is looking: following the newest decision, or held still at one —
 * remembered by request id, so new decisions arriving below (or old ones
 * leaving the top of the bounded log) do not move what a person reads —
 * and which decision is selected. Pure: each move takes the ids shown
 * (filtered, oldest first) and the rows there are.
 */
export interface LogView {
  readonly follow: boolean;
  /** the newest decision shown while held still */
  readonly bottomId: string | null;
  /** where it was last seen, for when it leaves the log */
  readonly bottomIndex: number;
  /** the selected decision; null: the newest shown */
  readonly selectedId: string | null;
}

export const FOLLOWING: LogView = { follow: true, bottomId: null, bottomIndex: 0, selectedId: null };

export interface LogWindow {
  /** the shown slice: ids[start, end) */
  readonly start: number;
  readonly end: number;
  /** index of the selected decision in ids (the newest shown when none is chosen) */
  readonly selected: number;
  /** decisions newer than the newest shown */
  readonly below: number;
}

function bottomOf(ids: readonly string[], view: LogView): number {
  if (ids.length === 0) return -1;
  if (view.follow || view.bottomId === null) return ids.length - 1;
  const at = ids.indexOf(view.bottomId);
  return at !== -1 ? at : Math.min(ids.length - 1, Math.max(0, view.bottomIndex));
}

export function logWindow(ids: readonly string[], view: LogView, height: number): LogWindow {
  const bottom = bottomOf(ids, view);
  const end = bottom + 1;
  const start = Math.max(0, end - Math.max(1, height));
  const chosen = view.selectedId === null ? -1 : ids.indexOf(view.selectedId);
  const selected = chosen >= start && chosen < end ? chosen : bottom;
  return { start, end, selected, below: Math.max(0, ids.length - end) };
}

/** Held still with `selected` selected, the window moved just enough to show it. */
function holdAt(ids: readonly string[], view: LogView, height: number, selected: number): LogView {
  if (ids.length === 0) return view;
  const { start, end } = logWindow(ids, view, height);
  const s = Math.min(ids.length - 1, Math.max(0, selected));
  let bottom = end - 1;
  if (s < start) bottom = Math.min(ids.length - 1, s + Math.max(1, height) - 1);
  else if (s > bottom) bottom = s;
  return { follow: false, bottomId: ids[bottom]!, bottomIndex: bottom, selectedId: ids[s]! };
}

/** ↑↓ j k (by 1), PgUp/PgDn (by a page): the selection moves, and following stops. */
export function moveInLog(ids: readonly string[], view: LogView, height: number, delta: number): LogView {
  if (ids.length === 0) return view;
  return holdAt(ids, view, height, logWindow(ids, view, height).selected + delta);
}

/** g / Home: the oldest decision. */
export function logToOldest(ids: readonly string[], view: LogView, height: number): LogView {
  return ids.length === 0 ? view : holdAt(ids, { ...view, follow: false, bottomId: null, bottomIndex: 0 }, height, 0);
}

/** G / End: the newest decision, following again. */
export function logToNewest(): LogView {
  return FOLLOWING;
}

/** `p`: hold the log still where it is, or follow again. */
export function togglePause(ids: readonly string[], view: LogView): LogView {
  if (!view.follow) return FOLLOWING;
  const bottom = ids.length - 1;
  return bottom < 0
    ? { ...view, follow: false }
    : { follow: false, bottomId: ids[bottom]!, bottomIndex: bottom, selectedId: view.selectedId };
}
