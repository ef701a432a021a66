import { Box, useApp } from 'ink';
import { useEffect, useMemo, useReducer } from 'react';
import { type Tone, seg } from '../../../output/segment.js';
import type { MonitorActions } from '../../source/connection-manager.js';
import { describeReset, type ResetOutcome, type ResetRequest } from '../../source/reset-request.js';
import type { MonitorStore } from '../../store/monitor-store.js';
import { useKeyHandler } from '../hooks/use-key-handler.js';
import { useMonitorState } from '../hooks/use-monitor-state.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import type { KeyContext } from '../keymap.js';
import { handleKey } from '../monitor-keys.js';
import { HEADER_ROWS, FOOTER_ROWS, planLayout } from '../layout.js';
import { clipLine, line } from '../lines/line.js';
import { seatRows } from '../lines/seat-lines.js';
import { resolveSelection, selectableRows } from '../selection.js';
import type { Theme } from '../theme.js';
import { initialUi, uiReducer } from '../ui-state.js';
import { ChainsPanel } from './ChainsPanel.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { DecisionLogPanel } from './DecisionLogPanel.js';
import { FilterPrompt } from './FilterPrompt.js';
import { Footer } from './Footer.js';
import { HeaderPanel } from './HeaderPanel.js';
import { HelpOverlay } from './HelpOverlay.js';
import { Lines } from './Lines.js';
import { SeatsPanel } from './SeatsPanel.js';
import { ThemeContext } from './theme-context.js';
import { TooSmall } from './TooSmall.js';

export interface AppProps {
  store: MonitorStore;
  actions: MonitorActions;
  theme: Theme;
  /** how long a transient message stays */
  messageMs?: number;
}

/** `routeplane top`: header, chains, seats, decision log, footer — top to bottom. */
export function App({ theme, ...props }: AppProps) {
  return (
    <ThemeContext.Provider value={theme}>
      <Monitor {...props} />
    </ThemeContext.Provider>
  );
}

function resetMessage(request: ResetRequest, outcome: ResetOutcome): { text: string; tone: Tone } {
  if (outcome.ok) return { text: `✓ reset ${describeReset(request)}: cleared ${outcome.cleared} breaker(s)`, tone: 'ok' };
  if (outcome.code === 'influence_disabled') return { text: 'routing influence is disabled (no breakers to reset)', tone: 'warn' };
  return { text: `✗ reset ${describeReset(request)} failed: ${outcome.message}`, tone: 'bad' };
}

function Monitor({ store, actions, messageMs = 5000 }: Omit<AppProps, 'theme'>) {
  const state = useMonitorState(store);
  const size = useTerminalSize();
  const { exit } = useApp();
  const [ui, dispatch] = useReducer(uiReducer, initialUi);

  const seatRowList = useMemo(() => seatRows(state.seats, state.now), [state.seats, state.now]);
  const rows = useMemo(() => selectableRows(state.routes, seatRowList), [state.routes, seatRowList]);
  const selected = resolveSelection(rows, ui.selection);
  const connected = state.connection.kind === 'live';
  const ctx: KeyContext = {
    connected,
    influenceEnabled: state.influence?.enabled ?? false,
    hasSelection: selected !== null,
    filterActive: ui.filter !== '',
    paused: ui.pausedAt !== null,
  };
  const targetCount = state.routes.reduce((n, r) => n + r.chain.length, 0);
  const plan = planLayout(size, { chains: Math.max(1, targetCount), seats: seatRowList.length, message: ui.message !== null });

  useEffect(() => {
    if (ui.message === null) return;
    const id = ui.messageId;
    const timer = setTimeout(() => dispatch({ type: 'message-expired', id }), messageMs);
    return () => clearTimeout(timer);
  }, [ui.message, ui.messageId, messageMs]);

  const say = (text: string, tone: Tone) => dispatch({ type: 'message', message: { text, tone } });

  const runReset = (request: ResetRequest) => {
    say(`resetting ${describeReset(request)}…`, 'muted');
    void actions.reset(request).then((outcome) => {
      const { text, tone } = resetMessage(request, outcome);
      say(text, tone);
    });
  };

  useKeyHandler((input, key) =>
    handleKey(input, key, {
      ui,
      dispatch,
      ctx,
      rows,
      selected,
      tooSmall: plan.kind === 'too-small',
      decisionsReceived: state.decisionsReceived,
      quit: exit,
      say,
      reset: runReset,
    }),
  );

  if (plan.kind === 'too-small') return <TooSmall columns={plan.columns} rows={plan.rows} />;

  const { width } = plan;
  const greyed = state.connection.kind === 'disconnected';
  const bodyHeight = plan.height - HEADER_ROWS - FOOTER_ROWS - plan.message;
  const mode = ui.mode;

  return (
    <Box flexDirection="column" width={width} height={plan.height}>
      <HeaderPanel state={state} width={width} />
      {mode.kind === 'help' ? (
        <HelpOverlay width={width} height={bodyHeight} />
      ) : (
        <>
          <ChainsPanel
            routes={state.routes}
            now={state.now}
            width={width}
            height={plan.chains}
            selectedKey={selected?.key ?? null}
            greyed={greyed}
          />
          <SeatsPanel rows={seatRowList} width={width} height={plan.seats} selectedKey={selected?.key ?? null} greyed={greyed} />
          {mode.kind === 'confirm' ? (
            <ConfirmDialog request={mode.request} seats={state.seats} width={width} height={plan.log + 1} />
          ) : (
            <DecisionLogPanel
              decisions={state.decisions}
              received={state.decisionsReceived}
              filter={ui.filter}
              pausedAt={ui.pausedAt}
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
