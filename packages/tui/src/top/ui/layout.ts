import { MIN_COLUMNS, MIN_ROWS } from './lines/too-small-lines.js';

/**
 * How the screen's rows are shared, top to bottom: header (2, or 3 with the
 * demo's scene line), chains,
 * seats, decision log, an optional message line, footer (1). Each panel has
 * a title line. Chains and seats get the rows they need while the log keeps
 * at least LOG_MIN; past that they are windowed around the selection.
 *
 * One row is left free at the bottom: Ink redraws the whole terminal (and
 * flickers) when a frame is as tall as the screen.
 */
export const HEADER_ROWS = 2;
export const FOOTER_ROWS = 1;
export const LOG_MIN = 4;
const TITLE_ROWS = 3;
const MIN_PANEL = 2;

export type LayoutPlan =
  | { readonly kind: 'too-small'; readonly columns: number; readonly rows: number }
  | {
      readonly kind: 'fits';
      readonly width: number;
      /** rows of the frame (terminal rows minus one) */
      readonly height: number;
      readonly chains: number;
      readonly seats: number;
      readonly log: number;
      readonly message: number;
      readonly header: number;
    };

export function planLayout(
  size: { columns: number; rows: number },
  needs: { chains: number; seats: number; message: boolean; scene?: boolean },
): LayoutPlan {
  if (size.columns < MIN_COLUMNS || size.rows < MIN_ROWS) return { kind: 'too-small', ...size };
  const height = size.rows - 1;
  const message = needs.message ? 1 : 0;
  const header = HEADER_ROWS + (needs.scene ? 1 : 0);
  const body = height - header - FOOTER_ROWS - TITLE_ROWS - message;
  const available = body - LOG_MIN;
  let chains = needs.chains;
  let seats = needs.seats;
  if (chains + seats > available) {
    seats = Math.min(needs.seats, Math.max(MIN_PANEL, Math.floor((available * needs.seats) / (needs.chains + needs.seats))));
    chains = Math.min(needs.chains, available - seats);
    seats = Math.min(needs.seats, available - chains);
  }
  return { kind: 'fits', width: size.columns, height, chains, seats, log: body - chains - seats, message, header };
}

/** The first row to show so that `focus` (if any) is inside a window of `height` rows. */
export function windowStart(total: number, height: number, focus: number | null): number {
  if (height <= 0 || total <= height || focus === null || focus < height) return 0;
  return Math.min(total - height, focus - height + 1);
}
