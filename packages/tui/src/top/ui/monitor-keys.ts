import type { DecisionEvent } from '@routeplane/shared';
import type { Key } from 'ink';
import type { Dispatch } from 'react';
import type { SeatView } from '../store/derive-view.js';
import { type ActionMessage, type ConfirmAction, actionCancelled, isConfirm, planProbe, planReset, planResetAll } from './actions.js';
import { findBinding, isEnabled, type KeyContext } from './keymap.js';
import { logToNewest, logToOldest, logWindow, moveInLog, togglePause } from './log-view.js';
import type { SelectableRow } from './selection.js';
import type { UiAction, UiState } from './ui-state.js';

/**
 * What a key press does. The keymap says which command a key means in the
 * current mode and focus (a modal's mode while one is open, so it gets keys
 * first); this carries the command out. A key that cannot act now says why.
 *
 * Destructive keys (`r`, `P`, `R`) are guarded: within GUARD_MS of opening or
 * closing a confirm, they do nothing, so a held key cannot open a second
 * confirm right after the first was answered, nor act twice.
 */
export const GUARD_MS = 500;

export interface KeyDeps {
  readonly ui: UiState;
  readonly dispatch: Dispatch<UiAction>;
  readonly ctx: KeyContext;
  readonly rows: readonly SelectableRow[];
  readonly selected: SelectableRow | null;
  readonly seats: readonly SeatView[];
  /** the request ids of the decisions the log lists now (filtered), oldest first */
  readonly logIds: readonly string[];
  /** rows of the decision log */
  readonly logHeight: number;
  decisionById(id: string): DecisionEvent | undefined;
  /** how far the open overlay (help, explain) can scroll, and by how much a page */
  readonly overlayMax: number;
  readonly overlayPage: number;
  /** the too-small screen only knows `q` */
  readonly tooSmall: boolean;
  now(): number;
  quit(): void;
  say(message: ActionMessage): void;
  act(action: ConfirmAction): void;
}

export function handleKey(input: string, key: Key, deps: KeyDeps): void {
  const { ui, dispatch, ctx } = deps;
  const mode = ui.mode;
  if (deps.tooSmall) {
    if (findBinding('main', input, key)?.command === 'quit') deps.quit();
    return;
  }
  const binding = findBinding(mode.kind, input, key, ui.focus);
  if (!binding) return;
  if (binding.destructive && deps.now() < ui.guardUntil) return;
  if (!isEnabled(binding, ctx)) {
    deps.say({ text: binding.disabledReason?.(ctx) ?? 'not available now', tone: 'warn' });
    return;
  }
  const toMain = () => dispatch({ type: 'mode', mode: { kind: 'main' } });
  const guard = () => dispatch({ type: 'guard', until: deps.now() + GUARD_MS });
  const confirm = (plan: ConfirmAction | ActionMessage) => {
    if (!isConfirm(plan)) return deps.say(plan);
    guard();
    dispatch({ type: 'mode', mode: { kind: 'confirm', action: plan } });
  };
  const log = (next: UiState['log']) => dispatch({ type: 'log', log: next });
  const { logIds: ids, logHeight: height } = deps;
  const page = Math.max(1, height - 1);
  switch (binding.command) {
    case 'select-up':
      return dispatch({ type: 'move', rows: deps.rows, delta: -1 });
    case 'select-down':
      return dispatch({ type: 'move', rows: deps.rows, delta: 1 });
    case 'switch-focus':
      return dispatch({ type: 'focus', focus: ui.focus === 'upper' ? 'log' : 'upper' });
    case 'log-up':
      return log(moveInLog(ids, ui.log, height, -1));
    case 'log-down':
      return log(moveInLog(ids, ui.log, height, 1));
    case 'log-page-up':
      return log(moveInLog(ids, ui.log, height, -page));
    case 'log-page-down':
      return log(moveInLog(ids, ui.log, height, page));
    case 'log-oldest':
      return log(logToOldest(ids, ui.log, height));
    case 'log-newest':
      return log(logToNewest());
    case 'explain': {
      if (ids.length === 0) return deps.say({ text: 'no decision to explain yet', tone: 'muted' });
      const id = ids[logWindow(ids, ui.log, height).selected];
      const decision = id === undefined ? undefined : deps.decisionById(id);
      if (decision) dispatch({ type: 'mode', mode: { kind: 'explain', decision, scroll: 0 } });
      return;
    }
    case 'reset-selected':
      if (deps.selected) confirm(planReset(deps.selected.target, deps.seats));
      return;
    case 'probe-selected':
      if (deps.selected) confirm(planProbe(deps.selected.target, deps.seats));
      return;
    case 'reset-all': {
      const plan = planResetAll(deps.seats);
      if (plan.kind === 'reset' && plan.kinds.length === 0) return deps.say({ text: 'nothing to reset: no breaker is open', tone: 'warn' });
      return confirm(plan);
    }
    case 'toggle-pause':
      return log(togglePause(ids, ui.log));
    case 'toggle-sessions':
      return dispatch({ type: 'toggle-sessions' });
    case 'open-filter':
      return dispatch({ type: 'mode', mode: { kind: 'filter' } });
    case 'clear-filter':
    case 'filter-cancel':
      return dispatch({ type: 'filter-clear' });
    case 'open-help':
      return dispatch({ type: 'mode', mode: { kind: 'help', scroll: 0 } });
    case 'quit':
      return deps.quit();
    case 'filter-type':
      return dispatch({ type: 'filter-type', text: input });
    case 'filter-delete':
      return dispatch({ type: 'filter-delete' });
    case 'filter-apply':
    case 'close-overlay':
      return toMain();
    case 'overlay-up':
      return dispatch({ type: 'scroll', delta: key.pageUp ? -deps.overlayPage : -1, max: deps.overlayMax });
    case 'overlay-down':
      return dispatch({ type: 'scroll', delta: key.pageDown ? deps.overlayPage : 1, max: deps.overlayMax });
    case 'confirm-yes':
      toMain();
      guard();
      if (mode.kind === 'confirm') deps.act(mode.action);
      return;
    case 'confirm-no':
      toMain();
      guard();
      if (mode.kind === 'confirm') deps.say(actionCancelled(mode.action));
      return;
  }
}
