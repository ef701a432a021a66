import type { Tone } from '../../output/segment.js';
import type { ResetRequest } from '../source/reset-request.js';
import { moveSelection, type SelectableRow, type Selection } from './selection.js';

/**
 * What the person is doing, apart from what the daemon says: the mode (a
 * modal captures keys first), the selection, the log filter, pause, and the
 * transient message. A pure reducer.
 */
export type UiMode =
  | { readonly kind: 'main' }
  | { readonly kind: 'help' }
  | { readonly kind: 'filter' }
  | { readonly kind: 'confirm'; readonly request: ResetRequest };

export interface Message {
  readonly text: string;
  readonly tone: Tone;
}

export interface UiState {
  readonly mode: UiMode;
  readonly selection: Selection;
  readonly filter: string;
  /** decisions received when the log was paused; null while following */
  readonly pausedAt: number | null;
  readonly message: Message | null;
  /** bumps with every message so a newer one restarts the fade timer */
  readonly messageId: number;
}

export const initialUi: UiState = {
  mode: { kind: 'main' },
  selection: { key: null, index: 0 },
  filter: '',
  pausedAt: null,
  message: null,
  messageId: 0,
};

export type UiAction =
  | { readonly type: 'move'; readonly rows: readonly SelectableRow[]; readonly delta: number }
  | { readonly type: 'mode'; readonly mode: UiMode }
  | { readonly type: 'filter-type'; readonly text: string }
  | { readonly type: 'filter-delete' }
  | { readonly type: 'filter-clear' }
  | { readonly type: 'toggle-pause'; readonly received: number }
  | { readonly type: 'message'; readonly message: Message }
  | { readonly type: 'message-expired'; readonly id: number };

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'move':
      return { ...state, selection: moveSelection(action.rows, state.selection, action.delta) };
    case 'mode':
      return { ...state, mode: action.mode };
    case 'filter-type':
      return { ...state, filter: state.filter + action.text };
    case 'filter-delete':
      return { ...state, filter: Array.from(state.filter).slice(0, -1).join('') };
    case 'filter-clear':
      return { ...state, filter: '', mode: { kind: 'main' } };
    case 'toggle-pause':
      return { ...state, pausedAt: state.pausedAt === null ? action.received : null };
    case 'message':
      return { ...state, message: action.message, messageId: state.messageId + 1 };
    case 'message-expired':
      return action.id === state.messageId ? { ...state, message: null } : state;
  }
}
