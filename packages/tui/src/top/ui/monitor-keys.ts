import type { Key } from 'ink';
import type { Dispatch } from 'react';
import type { Tone } from '../../output/segment.js';
import type { ResetRequest } from '../source/reset-request.js';
import { findBinding, isEnabled, type KeyContext } from './keymap.js';
import type { SelectableRow } from './selection.js';
import type { UiAction, UiState } from './ui-state.js';

/**
 * What a key press does. The keymap says which command a key means in the
 * current mode (a modal's mode while one is open, so it gets keys first);
 * this carries the command out. A key that cannot act now says why.
 */
export interface KeyDeps {
  readonly ui: UiState;
  readonly dispatch: Dispatch<UiAction>;
  readonly ctx: KeyContext;
  readonly rows: readonly SelectableRow[];
  readonly selected: SelectableRow | null;
  /** the too-small screen only knows `q` */
  readonly tooSmall: boolean;
  readonly decisionsReceived: number;
  quit(): void;
  say(text: string, tone: Tone): void;
  reset(request: ResetRequest): void;
}

export function handleKey(input: string, key: Key, deps: KeyDeps): void {
  const { ui, dispatch, ctx } = deps;
  const mode = ui.mode;
  if (deps.tooSmall) {
    if (findBinding('main', input, key)?.command === 'quit') deps.quit();
    return;
  }
  const binding = findBinding(mode.kind, input, key);
  if (!binding) return;
  if (!isEnabled(binding, ctx)) {
    deps.say(binding.disabledReason?.(ctx) ?? 'not available now', 'warn');
    return;
  }
  const toMain = () => dispatch({ type: 'mode', mode: { kind: 'main' } });
  switch (binding.command) {
    case 'select-up':
      dispatch({ type: 'move', rows: deps.rows, delta: -1 });
      return;
    case 'select-down':
      dispatch({ type: 'move', rows: deps.rows, delta: 1 });
      return;
    case 'reset-selected':
      if (deps.selected) dispatch({ type: 'mode', mode: { kind: 'confirm', request: deps.selected.reset } });
      return;
    case 'reset-all':
      dispatch({ type: 'mode', mode: { kind: 'confirm', request: { scope: 'all' } } });
      return;
    case 'toggle-pause':
      dispatch({ type: 'toggle-pause', received: deps.decisionsReceived });
      return;
    case 'open-filter':
      dispatch({ type: 'mode', mode: { kind: 'filter' } });
      return;
    case 'clear-filter':
    case 'filter-cancel':
      dispatch({ type: 'filter-clear' });
      return;
    case 'open-help':
      dispatch({ type: 'mode', mode: { kind: 'help' } });
      return;
    case 'quit':
      deps.quit();
      return;
    case 'filter-type':
      dispatch({ type: 'filter-type', text: input });
      return;
    case 'filter-delete':
      dispatch({ type: 'filter-delete' });
      return;
    case 'filter-apply':
    case 'close-help':
      toMain();
      return;
    case 'confirm-yes':
      toMain();
      if (mode.kind === 'confirm') deps.reset(mode.request);
      return;
    case 'confirm-no':
      toMain();
      deps.say('reset cancelled: nothing was changed', 'muted');
      return;
  }
}
