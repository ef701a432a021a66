import type { ResetRequest } from '../../source/reset-request.js';
import type { SeatView } from '../../store/derive-view.js';
import { confirmLines } from '../lines/confirm-lines.js';
import { Lines } from './Lines.js';

/** The y/N question before a reset. While it shows, keys go to it first: only `y` resets; n, Enter and Esc cancel. */
export function ConfirmDialog({
  request,
  seats,
  width,
  height,
}: {
  request: ResetRequest;
  seats: readonly SeatView[];
  width: number;
  height: number;
}) {
  return <Lines lines={confirmLines(request, seats, width)} height={height} />;
}
