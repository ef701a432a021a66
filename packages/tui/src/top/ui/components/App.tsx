import { Box, useApp } from 'ink';
import { useMemo, useReducer } from 'react';
import { seg } from '../../../output/segment.js';
import type { MonitorActions } from '../../source/connection-manager.js';
import { countdownClock } from '../../store/monitor-state.js';
import type { MonitorStore } from '../../store/monitor-store.js';
import { type ActionMessage, type ConfirmAction, actionStarted, probeDone, resetDone } from '../actions.js';
import { useKeyHandler } from '../hooks/use-key-handler.js';
import { useMonitorState } from '../hooks/use-monitor-state.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import type { KeyContext } from '../keymap.js';
import { FOOTER_ROWS, planLayout } from '../layout.js';
import { matchesFilter } from '../lines/decision-lines.js';
import { clipLine, line } from '../lines/line.js';
import { seatRows } from '../lines/seat-lines.js';
import { handleKey } from '../monitor-keys.js';
import { resolveSelection, selectableRows } from '../selection.js';
import type { Theme } from '../theme.js';
import { initialUi, uiReducer } from '../ui-state.js';
import { ChainsPanel } from './ChainsPanel.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { DecisionLogPanel } from './DecisionLogPanel.js';
import { ExplainOverlay, explainScrollMax } from './ExplainOverlay.js';
import { FilterPrompt } from './FilterPrompt.js';
import { Footer } from './Footer.js';
import { HeaderPanel } from './HeaderPanel.js';
import { HelpOverlay, helpScrollMax } from './HelpOverlay.js';
import { Lines } from './Lines.js';
import { SeatsPanel } from './SeatsPanel.js';
import { SessionsPanel } from './SessionsPanel.js';
import { ThemeContext } from './theme-context.js';
import { TooSmall } from './TooSmall.js';

export interface AppProps {
  store: MonitorStore;
  actions: MonitorActions;
  theme: Theme;
  /** the demo's scene in words at a time (`scene 2/4: …`), shown under the header */
  scene?: (now: number) => string | null;
  /** wall clock for the key guard */
  clock?: () => number;
}

/** `routeplane top`: header, chains, seats, decision log, footer — top to bottom. */
export function App({ theme, ...props }: AppProps) {
  return (
    <ThemeContext.Provider value={theme}>
      <Monitor {...props} />
    </ThemeContext.Provider>
  );
}

function Monitor({ store, actions, scene, clock = Date.now }: Omit<AppProps, 'theme'>) {
  const state = useMonitorState(store);
  const size = useTerminalSize();
  const { exit } = useApp();
  const [ui, dispatch] = useReducer(uiReducer, initialUi);

  const { now: countdownNow, stale } = countdownClock(state);
  const countdowns = useMemo(() => ({ now: countdownNow, stale }), [countdownNow, stale]);
  const seatRowList = useMemo(
    () => seatRows(state.seats, { clock: countdowns, activity: state.activity }),
    [state.seats, state.activity, countdowns],
  );
  // the sessions panel has no row to act on: with it shown, only the chains are selectable
  const rows = useMemo(() => selectableRows(state.routes, ui.sessions ? [] : seatRowList), [state.routes, seatRowList, ui.sessions]);
  const selected = resolveSelection(rows, ui.selection);
  const listed = useMemo(
    () => (ui.filter === '' ? state.decisions : state.decisions.filter((d) => matchesFilter(d.event, ui.filter))),
    [state.decisions, ui.filter],
  );
  const logIds = useMemo(() => listed.map((d) => d.id), [listed]);
  const connected = state.connection.kind === 'live';
  const ctx: KeyContext = {
    connected,
    influenceEnabled: state.influence?.enabled ?? false,
    hasSelection: selected !== null,
    filterActive: ui.filter !== '',
    paused: !ui.log.follow,
    focus: ui.focus,
    sessionsShown: ui.sessions,
  };
  const sceneText = scene?.(state.now) ?? null;
  const targetCount = state.routes.reduce((n, r) => n + r.chain.length, 0);
  const plan = planLayout(size, {
    chains: Math.max(1, targetCount),
    seats: ui.sessions ? Math.max(1, state.sessions.length) : seatRowList.length,
    message: ui.message !== null,
    scene: sceneText !== null,
  });
  const bodyHeight = plan.kind === 'fits' ? plan.height - plan.header - FOOTER_ROWS - plan.message : 0;
  const width = plan.kind === 'fits' ? plan.width : size.columns;
  const logHeight = plan.kind === 'fits' ? plan.log : 1;

  const say = (message: ActionMessage) => dispatch({ type: 'message', message });
  const act = (action: ConfirmAction) => {
    say(actionStarted(action));
    if (action.kind === 'probe') {
      void actions.probe(action.target.seat, action.target.model).then((outcome) => say(probeDone(action, outcome)));
    } else {
      void actions.reset(action.request).then((outcome) => say(resetDone(action, outcome)));
    }
  };
  const mode = ui.mode;
  const overlayMax =
    mode.kind === 'help'
      ? helpScrollMax(width, bodyHeight)
      : mode.kind === 'explain'
        ? explainScrollMax(mode.decision, width, bodyHeight)
        : 0;

  useKeyHandler((input, key) =>
    handleKey(input, key, {
      ui,
      dispatch,
      ctx,
      rows,
      selected,
      seats: state.seats,
      logIds,
      logHeight,
      decisionById: (id) => listed.find((d) => d.id === id)?.event,
      overlayMax,
      overlayPage: Math.max(1, bodyHeight - 2),
      tooSmall: plan.kind === 'too-small',
      now: clock,
      quit: exit,
      say,
      act,
    }),
  );

  if (plan.kind === 'too-small') return <TooSmall columns={plan.columns} rows={plan.rows} />;

  const greyed = state.connection.kind === 'disconnected';
  const upperKey = ui.focus === 'upper' ? (selected?.key ?? null) : null;

  return (
    <Box flexDirection="column" width={width} height={plan.height}>
      <HeaderPanel state={state} width={width} scene={sceneText} />
      {mode.kind === 'help' ? (
        <HelpOverlay width={width} height={bodyHeight} scroll={mode.scroll} />
      ) : mode.kind === 'explain' ? (
        <ExplainOverlay decision={mode.decision} width={width} height={bodyHeight} scroll={mode.scroll} />
      ) : (
        <>
          <ChainsPanel
            routes={state.routes}
            clock={countdowns}
            shares={state.shares}
            width={width}
            height={plan.chains}
            selectedKey={upperKey}
            greyed={greyed}
          />
          {ui.sessions ? (
            <SessionsPanel sessions={state.sessions} now={countdowns.now} width={width} height={plan.seats} greyed={greyed} />
          ) : (
            <SeatsPanel rows={seatRowList} now={countdowns.now} width={width} height={plan.seats} selectedKey={upperKey} greyed={greyed} />
          )}
          {mode.kind === 'confirm' ? (
            <ConfirmDialog action={mode.action} seats={state.seats} width={width} height={plan.log + 1} />
          ) : (
            <DecisionLogPanel
              decisions={listed}
              total={state.decisions.length}
              filter={ui.filter}
              view={ui.log}
              focused={ui.focus === 'log'}
              emptyText={state.connection.kind === 'waiting' ? 'no daemon yet: decisions show once it answers' : 'waiting for requests…'}
              width={width}
              height={plan.log}
              greyed={greyed}
            />
          )}
        </>
      )}
      {ui.message && <Lines lines={[clipLine(line([seg(' '), seg(ui.message.text, ui.message.tone)]), width)]} />}
      {mode.kind === 'filter' ? (
        <FilterPrompt filter={ui.filter} ctx={ctx} width={width} />
      ) : (
        <Footer mode={mode.kind} ctx={ctx} width={width} />
      )}
    </Box>
  );
}
