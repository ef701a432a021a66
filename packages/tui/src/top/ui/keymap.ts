import type { Key } from 'ink';

/**
 * Every key the monitor knows, as data. This one table feeds the input
 * handler (`findBinding`), the footer (only what applies now; what is not
 * available is dimmed) and the `?` overlay (everything), so they can never
 * disagree.
 */
export type Mode = 'main' | 'filter' | 'confirm' | 'help';

export type CommandId =
  | 'select-up'
  | 'select-down'
  | 'reset-selected'
  | 'reset-all'
  | 'toggle-pause'
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
  | 'close-help';

export type KeySpec =
  | { readonly char: string }
  | { readonly special: 'up' | 'down' | 'return' | 'escape' | 'backspace' }
  /** any printable text (typing into the filter) */
  | { readonly special: 'text' };

/** What a binding's availability and label may depend on. */
export interface KeyContext {
  readonly connected: boolean;
  readonly influenceEnabled: boolean;
  readonly hasSelection: boolean;
  readonly filterActive: boolean;
  readonly paused: boolean;
}

export interface KeyBinding {
  readonly command: CommandId;
  readonly mode: Mode;
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
}

const canReset = (ctx: KeyContext) => ctx.connected && ctx.influenceEnabled;
const whyNoReset = (ctx: KeyContext) =>
  !ctx.connected ? 'not connected to the daemon: reset is unavailable' : 'routing influence is disabled (no breakers to reset)';

export const KEYMAP: readonly KeyBinding[] = [
  {
    command: 'select-up',
    mode: 'main',
    keys: [{ special: 'up' }, { char: 'k' }],
    keyLabel: '↑ k',
    label: 'select the row above',
    footer: 'select',
    footerKeys: '↑↓',
  },
  {
    command: 'select-down',
    mode: 'main',
    keys: [{ special: 'down' }, { char: 'j' }],
    keyLabel: '↓ j',
    label: 'select the row below',
    footer: null,
  },
  {
    command: 'reset-selected',
    mode: 'main',
    keys: [{ char: 'r' }],
    keyLabel: 'r',
    label: 'reset the selected seat or target (asks first)',
    footer: 'reset',
    enabled: (ctx) => canReset(ctx) && ctx.hasSelection,
    disabledReason: (ctx) => (canReset(ctx) ? 'select a seat or target first (↑/↓)' : whyNoReset(ctx)),
  },
  {
    command: 'reset-all',
    mode: 'main',
    keys: [{ char: 'R' }],
    keyLabel: 'R',
    label: 'reset every breaker (asks first, default No)',
    footer: 'reset all',
    enabled: canReset,
    disabledReason: whyNoReset,
  },
  {
    command: 'toggle-pause',
    mode: 'main',
    keys: [{ char: 'p' }],
    keyLabel: 'p',
    label: 'pause / follow the decision log',
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

  { command: 'confirm-yes', mode: 'confirm', keys: [{ char: 'y' }, { char: 'Y' }], keyLabel: 'y', label: 'yes, reset', footer: 'yes' },
  {
    command: 'confirm-no',
    mode: 'confirm',
    keys: [{ char: 'n' }, { char: 'N' }, { special: 'return' }, { special: 'escape' }],
    keyLabel: 'n Enter Esc',
    label: 'no, keep the breakers (the default)',
    footer: 'no',
    footerKeys: 'n/Enter',
  },

  {
    command: 'close-help',
    mode: 'help',
    keys: [{ special: 'escape' }, { char: '?' }, { char: 'q' }],
    keyLabel: 'Esc ? q',
    label: 'close this help',
    footer: 'close help',
    footerKeys: 'Esc',
  },
];

export const MODE_TITLES: Record<Mode, string> = {
  main: 'Monitor',
  filter: 'While filtering',
  confirm: 'While confirming',
  help: 'In this help',
};

function matches(spec: KeySpec, input: string, key: Key): boolean {
  if ('char' in spec) return input === spec.char && !key.ctrl && !key.meta;
  switch (spec.special) {
    case 'up':
      return key.upArrow;
    case 'down':
      return key.downArrow;
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

/** The binding a key press means in `mode`, if any. */
export function findBinding(mode: Mode, input: string, key: Key, keymap: readonly KeyBinding[] = KEYMAP): KeyBinding | undefined {
  return keymap.find((binding) => binding.mode === mode && binding.keys.some((spec) => matches(spec, input, key)));
}

export function isEnabled(binding: KeyBinding, ctx: KeyContext): boolean {
  return binding.enabled ? binding.enabled(ctx) : true;
}

export function footerText(binding: KeyBinding, ctx: KeyContext): string | null {
  return typeof binding.footer === 'function' ? binding.footer(ctx) : binding.footer;
}
