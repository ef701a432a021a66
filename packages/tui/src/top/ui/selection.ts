import type { RouteView } from '../store/derive-view.js';
import type { ActionTarget } from './actions.js';
import { chainRowKey } from './lines/chain-lines.js';
import type { SeatRow } from './lines/seat-lines.js';

/**
 * The rows ↑/↓ move through in the upper panes: every target of every chain,
 * then every seat row. A selection is remembered by key, so it follows its
 * target when a trip moves it to the back, and falls back to the same
 * position when its row goes away (a model breaker row that was cleared).
 */
export interface SelectableRow {
  readonly key: string;
  /** what `r` and `P` act on */
  readonly target: ActionTarget;
}

export function selectableRows(routes: readonly RouteView[], seats: readonly SeatRow[]): SelectableRow[] {
  const rows: SelectableRow[] = [];
  for (const route of routes) {
    for (const target of route.chain) {
      rows.push({ key: chainRowKey(route.route, target), target: { seat: target.seat, model: target.model } });
    }
  }
  for (const seat of seats) rows.push({ key: seat.key, target: seat.target });
  return rows;
}

export interface Selection {
  readonly key: string | null;
  /** where the selection was last seen, for when its row goes away */
  readonly index: number;
}

export function resolveSelection(rows: readonly SelectableRow[], selection: Selection): SelectableRow | null {
  if (rows.length === 0) return null;
  const found = selection.key === null ? undefined : rows.find((r) => r.key === selection.key);
  return found ?? rows[Math.min(Math.max(0, selection.index), rows.length - 1)]!;
}

export function moveSelection(rows: readonly SelectableRow[], selection: Selection, delta: number): Selection {
  const current = resolveSelection(rows, selection);
  if (!current) return selection;
  const at = rows.indexOf(current);
  const index = Math.min(rows.length - 1, Math.max(0, at + delta));
  return { key: rows[index]!.key, index };
}
