import type { SeatView } from '../../store/derive-view.js';
import type { ConfirmAction } from '../actions.js';
import { confirmLines } from '../lines/confirm-lines.js';
import { Lines } from './Lines.js';

/** The y/N question before a reset or a probe. While it shows, keys go to it first: only `y` acts; n, Enter, Esc and q cancel. */
export function ConfirmDialog({
  action,
  seats,
  width,
  height,
}: {
  action: ConfirmAction;
  seats: readonly SeatView[];
  width: number;
  height: number;
}) {
  return <Lines lines={confirmLines(action, seats, width)} height={height} />;
}
