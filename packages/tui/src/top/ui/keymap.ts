import type { Key } from 'ink';

/**
 * Every key the monitor knows, as data. This one table feeds the input
 * handler (`findBinding`), the footer (only what applies now; what is not
 * available is dimmed) and the `?` overlay (everything), so they can never
 * disagree. In the main view a binding may belong to one focus: the upper
 * panes (chains and seats) or the decision log (`Tab` moves between them).
 */
export type Mode = 'main' | 'filter' | 'confirm' | 'help' | 'explain';
export type Focus = 'upper' | 'log';

export type CommandId =
  | 'select-up'
  | 'select-down'
  | 'switch-focus'
  | 'log-up'
  | 'log-down'
  | 'log-page-up'
  | 'log-page-down'
  | 'log-oldest'
  | 'log-newest'
  | 'explain'
  | 'reset-selected'
  | 'probe-selected'
  | 'reset-all'
  | 'toggle-pause'
  | 'toggle-sessions'
  | 'open-filter'
  | 'clear-filter'
  | 'open-help'
  | 'quit'
  | 'filter-type'
  | 'filter-delete'
  | 'filter-apply'
  | 'filter-cancel'
  | 'confirm-yes'
  | 'confirm-no'
  | 'overlay-up'
  | 'overlay-down'
  | 'close-overlay';

export type SpecialKey = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'tab' | 'return' | 'escape' | 'backspace';

export type KeySpec =
  | { readonly char: string }
  | { readonly special: SpecialKey }
  /** any printable text (typing into the filter) */
  | { readonly special: 'text' };

/** What a binding's availability and label may depend on. */
export interface KeyContext {
  readonly connected: boolean;
  readonly influenceEnabled: boolean;
  readonly hasSelection: boolean;
  readonly filterActive: boolean;
  readonly paused: boolean;
  readonly focus: Focus;
  /** the sessions are shown in place of the seats */
  readonly sessionsShown: boolean;
}

export interface KeyBinding {
  readonly command: CommandId;
  readonly mode: Mode;
  /** in the main view: only while this pane has the focus */
  readonly focus?: Focus;
  readonly keys: readonly KeySpec[];
  /** the keys as the help overlay writes them */
  readonly keyLabel: string;
  /** what the key does, for the help overlay */
  readonly label: string;
  /** short text for the footer; null keeps it out of the footer */
  readonly footer: string | null | ((ctx: KeyContext) => string | null);
  /** the keys as the footer writes them, when shorter than keyLabel */
  readonly footerKeys?: string;
  /** false → shown dimmed and does nothing but say why */
  readonly enabled?: (ctx: KeyContext) => boolean;
  /** why it is disabled, said when the key is pressed anyway */
  readonly disabledReason?: (ctx: KeyContext) => string;
  /** acts on the daemon: guarded against a held key (it cannot fire twice within the guard) */
  readonly destructive?: boolean;
}

const canAct = (ctx: KeyContext) => ctx.connected && ctx.influenceEnabled;
const whyCannotAct = (what: string) => (ctx: KeyContext) =>
  !ctx.connected ? `not connected to the daemon: ${what} is unavailable` : `routing influence is disabled (no breakers to ${what})`;
const onSelection = (what: string) => ({
  enabled: (ctx: KeyContext) => canAct(ctx) && ctx.hasSelection && ctx.focus === 'upper',
  disabledReason: (ctx: KeyContext) =>
    !canAct(ctx)
      ? whyCannotAct(what)(ctx)
      : ctx.focus !== 'upper'
        ? `Tab to the chains and seats, then select what to ${what}`
        : 'select a seat or target first (↑/↓)',
});

export const KEYMAP: readonly KeyBinding[] = [
  {
    command: 'select-up',
    mode: 'main',
    focus: 'upper',
    keys: [{ special: 'up' }, { char: 'k' }],
    keyLabel: '↑ k',
    label: 'select the row above',
    footer: 'select',
    footerKeys: '↑↓',
  },
  {
    command: 'select-down',
    mode: 'main',
    focus: 'upper',
    keys: [{ special: 'down' }, { char: 'j' }],
    keyLabel: '↓ j',
    label: 'select the row below',
    footer: null,
  },
  {
    command: 'log-up',
    mode: 'main',
    focus: 'log',
    keys: [{ special: 'up' }, { char: 'k' }],
    keyLabel: '↑ k',
    label: 'select the decision above (holds the log still)',
    footer: 'select',
    footerKeys: '↑↓',
  },
  {
    command: 'log-down',
    mode: 'main',
    focus: 'log',
    keys: [{ special: 'down' }, { char: 'j' }],
    keyLabel: '↓ j',
    label: 'select the decision below',
    footer: null,
  },
  {
    command: 'log-page-up',
    mode: 'main',
    focus: 'log',
    keys: [{ special: 'pageUp' }],
    keyLabel: 'PgUp',
    label: 'scroll the log up a page',
    footer: 'page',
    footerKeys: 'PgUp/Dn',
  },
  {
    command: 'log-page-down',
    mode: 'main',
    focus: 'log',
    keys: [{ special: 'pageDown' }],
    keyLabel: 'PgDn',
    label: 'scroll the log down a page',
    footer: null,
  },
  {
    command: 'log-oldest',
    mode: 'main',
    focus: 'log',
    keys: [{ char: 'g' }, { special: 'home' }],
    keyLabel: 'g Home',
    label: 'the oldest decision',
    footer: null,
  },
  {
    command: 'log-newest',
    mode: 'main',
    focus: 'log',
    keys: [{ char: 'G' }, { special: 'end' }],
    keyLabel: 'G End',
    label: 'the newest decision, and follow again',
    footer: 'newest',
    footerKeys: 'G',
  },
  {
    command: 'explain',
    mode: 'main',
    focus: 'log',
    keys: [{ special: 'return' }],
    keyLabel: 'Enter',
    label: 'explain the decision: what `routeplane why` prints',
    footer: 'explain',
  },
  {
    command: 'switch-focus',
    mode: 'main',
    keys: [{ special: 'tab' }],
    keyLabel: 'Tab',
    label: 'move the focus between chains & seats and the decision log',
    footer: (ctx) => (ctx.focus === 'upper' ? 'log' : 'chains'),
  },
  {
    command: 'reset-selected',
    mode: 'main',
    keys: [{ char: 'r' }],
    keyLabel: 'r',
    label: 'reset the selected seat or target (asks first)',
    footer: (ctx) => (ctx.focus === 'upper' ? 'reset' : null),
    destructive: true,
    ...onSelection('reset'),
  },
  {
    command: 'probe-selected',
    mode: 'main',
    keys: [{ char: 'P' }],
    keyLabel: 'P',
    label: 'make the selected seat or target probe-ready now (asks)',
    footer: (ctx) => (ctx.focus === 'upper' ? 'probe' : null),
    destructive: true,
    ...onSelection('probe'),
  },
  {
    command: 'reset-all',
    mode: 'main',
    keys: [{ char: 'R' }],
    keyLabel: 'R',
    label: 'reset every breaker (asks first, default No)',
    footer: 'reset all',
    destructive: true,
    enabled: canAct,
    disabledReason: whyCannotAct('reset'),
  },
  {
    command: 'toggle-pause',
    mode: 'main',
    keys: [{ char: 'p' }],
    keyLabel: 'p',
    label: 'hold the decision log still / follow it again',
    footer: (ctx) => (ctx.paused ? 'follow' : 'pause'),
  },
  {
    command: 'open-filter',
    mode: 'main',
    keys: [{ char: '/' }],
    keyLabel: '/',
    label: 'filter the log by route, seat or status',
    footer: 'filter',
  },
  {
    command: 'clear-filter',
    mode: 'main',
    keys: [{ special: 'escape' }],
    keyLabel: 'Esc',
    label: 'clear the log filter',
    footer: (ctx) => (ctx.filterActive ? 'clear filter' : null),
  },
  {
    command: 'toggle-sessions',
    mode: 'main',
    keys: [{ char: 'S' }],
    keyLabel: 'S',
    label: 'sessions (last 10 min) in place of the seats, and back',
    footer: (ctx) => (ctx.sessionsShown ? 'seats' : 'sessions'),
  },
  { command: 'open-help', mode: 'main', keys: [{ char: '?' }], keyLabel: '?', label: 'show this help', footer: 'help' },
  { command: 'quit', mode: 'main', keys: [{ char: 'q' }], keyLabel: 'q', label: 'quit', footer: 'quit' },

  {
    command: 'filter-type',
    mode: 'filter',
    keys: [{ special: 'text' }],
    keyLabel: 'text',
    label: 'type a route, seat or status',
    footer: null,
  },
  {
    command: 'filter-delete',
    mode: 'filter',
    keys: [{ special: 'backspace' }],
    keyLabel: 'Backspace',
    label: 'delete the last character',
    footer: null,
  },
  { command: 'filter-apply', mode: 'filter', keys: [{ special: 'return' }], keyLabel: 'Enter', label: 'keep this filter', footer: 'keep' },
  { command: 'filter-cancel', mode: 'filter', keys: [{ special: 'escape' }], keyLabel: 'Esc', label: 'clear the filter', footer: 'clear' },

  { command: 'confirm-yes', mode: 'confirm', keys: [{ char: 'y' }, { char: 'Y' }], keyLabel: 'y', label: 'yes, do it', footer: 'yes' },
  {
    command: 'confirm-no',
    mode: 'confirm',
    keys: [{ char: 'n' }, { char: 'N' }, { special: 'return' }, { special: 'escape' }, { char: 'q' }],
    keyLabel: 'n Enter Esc q',
    label: 'no, change nothing (the default)',
    footer: 'no',
    footerKeys: 'n/Enter',
  },

  {
    command: 'overlay-up',
    mode: 'help',
    keys: [{ special: 'up' }, { char: 'k' }, { special: 'pageUp' }],
    keyLabel: '↑ k PgUp',
    label: 'scroll up',
    footer: 'scroll',
    footerKeys: '↑↓',
  },
  {
    command: 'overlay-down',
    mode: 'help',
    keys: [{ special: 'down' }, { char: 'j' }, { special: 'pageDown' }],
    keyLabel: '↓ j PgDn',
    label: 'scroll down',
    footer: null,
  },
  {
    command: 'close-overlay',
    mode: 'help',
    keys: [{ special: 'escape' }, { char: '?' }, { char: 'q' }],
    keyLabel: 'Esc ? q',
    label: 'close this help',
    footer: 'close',
    footerKeys: 'Esc',
  },

  {
    command: 'overlay-up',
    mode: 'explain',
    keys: [{ special: 'up' }, { char: 'k' }, { special: 'pageUp' }],
    keyLabel: '↑ k PgUp',
    label: 'scroll up',
    footer: 'scroll',
    footerKeys: '↑↓',
  },
  {
    command: 'overlay-down',
    mode: 'explain',
    keys: [{ special: 'down' }, { char: 'j' }, { special: 'pageDown' }],
    keyLabel: '↓ j PgDn',
    label: 'scroll down',
    footer: null,
  },
  {
    command: 'close-overlay',
    mode: 'explain',
    keys: [{ special: 'escape' }, { char: 'q' }, { special: 'return' }],
    keyLabel: 'Esc q',
    label: 'close the explanation',
    footer: 'close',
    footerKeys: 'Esc',
  },
];

export const MODE_TITLES: Record<Mode, string> = {
  main: 'Monitor',
  filter: 'While filtering',
  confirm: 'While confirming',
  help: 'In this help',
  explain: 'In a decision',
};

function matches(spec: KeySpec, input: string, key: Key): boolean {
  if ('char' in spec) return input === spec.char && !key.ctrl && !key.meta;
  switch (spec.special) {
    case 'up':
      return key.upArrow;
    case 'down':
      return key.downArrow;
    case 'pageUp':
      return key.pageUp;
    case 'pageDown':
      return key.pageDown;
    case 'home':
      return key.home;
    case 'end':
      return key.end;
    case 'tab':
      return key.tab && !key.shift;
    case 'return':
      return key.return;
    case 'escape':
      return key.escape;
    case 'backspace':
      // Terminals send DEL (0x7f) for Backspace; Ink reports that as `delete`.
      return key.backspace || key.delete;
    case 'text':
      return input.length > 0 && !key.ctrl && !key.meta && !key.return && !key.tab && !/[\u0000-\u001f\u007f]/.test(input);
  }
}

/** The binding a key press means in `mode` (and, in the main view, with `focus`), if any. */
export function findBinding(
  mode: Mode,
  input: string,
  key: Key,
  focus: Focus = 'upper',
  keymap: readonly KeyBinding[] = KEYMAP,
): KeyBinding | undefined {
  return keymap.find(
    (binding) =>
      binding.mode === mode &&
      (binding.focus === undefined || binding.focus === focus) &&
      binding.keys.some((spec) => matches(spec, input, key)),
  );
}

export function isEnabled(binding: KeyBinding, ctx: KeyContext): boolean {
  return binding.enabled ? binding.enabled(ctx) : true;
}

export function footerText(binding: KeyBinding, ctx: KeyContext): string | null {
  return typeof binding.footer === 'function' ? binding.footer(ctx) : binding.footer;
}
