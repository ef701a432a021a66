import type { DecisionEvent } from '@routeplane/shared';
import type { Tone } from '../../output/segment.js';
import type { Focus } from './keymap.js';
import { FOLLOWING, type LogView } from './log-view.js';
import type { ConfirmAction } from './actions.js';
import { moveSelection, type SelectableRow, type Selection } from './selection.js';

/**
 * What the person is doing, apart from what the daemon says: the mode (a
 * modal captures keys first), which pane has the focus, the selection, the
 * log's view and filter, and the message line. A pure reducer.
 */
export type UiMode =
  | { readonly kind: 'main' }
  | { readonly kind: 'help'; readonly scroll: number }
  | { readonly kind: 'filter' }
  | { readonly kind: 'confirm'; readonly action: ConfirmAction }
  /** the decision explained; the event is kept, so it stays open when the log moves on */
  | { readonly kind: 'explain'; readonly decision: DecisionEvent; readonly scroll: number };

export interface Message {
  readonly text: string;
  readonly tone: Tone;
}

export interface UiState {
  readonly mode: UiMode;
  readonly focus: Focus;
  readonly selection: Selection;
  readonly filter: string;
  readonly log: LogView;
  /** the last action and what it did, kept until the next one (like lazygit's command log) */
  readonly message: Message | null;
  /** destructive keys do nothing before this time (a held key cannot open a second confirm or fire twice) */
  readonly guardUntil: number;
  /** the sessions panel is shown in place of the seats (key `S`) */
  readonly sessions: boolean;
}

export const initialUi: UiState = {
  mode: { kind: 'main' },
  focus: 'upper',
  selection: { key: null, index: 0 },
  filter: '',
  log: FOLLOWING,
  message: null,
  guardUntil: 0,
  sessions: false,
};

export type UiAction =
  | { readonly type: 'move'; readonly rows: readonly SelectableRow[]; readonly delta: number }
  | { readonly type: 'mode'; readonly mode: UiMode }
  | { readonly type: 'focus'; readonly focus: Focus }
  | { readonly type: 'log'; readonly log: LogView }
  | { readonly type: 'scroll'; readonly delta: number; readonly max: number }
  | { readonly type: 'filter-type'; readonly text: string }
  | { readonly type: 'filter-delete' }
  | { readonly type: 'filter-clear' }
  | { readonly type: 'message'; readonly message: Message }
  | { readonly type: 'guard'; readonly until: number }
  | { readonly type: 'toggle-sessions' };

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'move':
      return { ...state, selection: moveSelection(action.rows, state.selection, action.delta) };
    case 'mode':
      return { ...state, mode: action.mode };
    case 'focus':
      return { ...state, focus: action.focus };
    case 'log':
      return { ...state, log: action.log };
    case 'scroll': {
      const mode = state.mode;
      if (mode.kind !== 'help' && mode.kind !== 'explain') return state;
      const scroll = Math.min(Math.max(0, action.max), Math.max(0, mode.scroll + action.delta));
      return scroll === mode.scroll ? state : { ...state, mode: { ...mode, scroll } };
    }
    case 'filter-type':
      return { ...state, filter: state.filter + action.text };
    case 'filter-delete':
      return { ...state, filter: Array.from(state.filter).slice(0, -1).join('') };
    case 'filter-clear':
      return { ...state, filter: '', mode: { kind: 'main' } };
    case 'message':
      return { ...state, message: action.message };
    case 'guard':
      return { ...state, guardUntil: Math.max(state.guardUntil, action.until) };
    case 'toggle-sessions':
      return { ...state, sessions: !state.sessions };
  }
}
