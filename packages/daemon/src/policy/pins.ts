import type { Family } from '@routeplane/shared';
import type { AliasResolver } from './aliases.js';

/**
 * Pins: an agent orders a target with header
 * `x-routeplane-pin: SEAT` or `SEAT/MODEL`, or by asking for model
 * `SEAT/ROUTE` when no route or alias is named exactly that. A pin is an
 * explicit order: one that cannot be honoured is refused (400 naming the pin
 * and the reason), never silently re-routed.
 */

export interface Pin {
  readonly seat: string;
  /** null for a whole-seat pin: the seat's first entry in the chain */
  readonly model: string | null;
  readonly source: 'header' | 'model';
  /** as the agent wrote it, for the refusal message */
  readonly text: string;
}

export type PinRefusal = 'unknown' | 'not_in_chain' | 'drained' | 'protocol';

export type PinCheck =
  /** `index`: the pinned entry's position in the configured chain */
  { ok: true; index: number } | { ok: false; reason: PinRefusal; message: string };

/** A configured chain entry, as far as a pin cares. */
export interface PinChainEntry {
  readonly seat: string;
  readonly model: string;
  readonly weight: number;
  /** the family of the entry's seat */
  readonly family: Family;
}

/** The `x-routeplane-pin` header, or null when absent or empty. */
export function parsePinHeader(value: string | string[] | undefined): Pin | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text === '') return null;
  // seat ids hold no `/`; a model id may (`openai/gpt-4o` on a routing seat)
  const slash = text.indexOf('/');
  if (slash === -1) return { seat: text, model: null, source: 'header', text };
  return { seat: text.slice(0, slash), model: text.slice(slash + 1), source: 'header', text };
}

/** The route a requested model reaches, and the seat pin it carries when asked as `SEAT/ROUTE`. */
export type RequestedRoute = { route: string; pin: Pin | null } | { route: null; pin: null };

/**
 * Order: an exact route or alias name (even one whose alias leads nowhere);
 * then `SEAT/ROUTE` when SEAT is a declared seat and ROUTE reaches a route;
 * then the alias patterns. A pattern as broad as `*` must not swallow a pin.
 */
export function resolveRequested(requested: string, resolver: AliasResolver, seats: ReadonlySet<string>): RequestedRoute {
  if (!resolver.isExactName(requested)) {
    const slash = requested.indexOf('/');
    if (slash > 0 && seats.has(requested.slice(0, slash))) {
      const route = resolver.resolve(requested.slice(slash + 1));
      if (route !== null) return { route, pin: { seat: requested.slice(0, slash), model: null, source: 'model', text: requested } };
    }
  }
  const route = resolver.resolve(requested);
  return route === null ? { route: null, pin: null } : { route, pin: null };
}

/**
 * Is `pin` an entry of the resolved route's chain that this request may try?
 * For a whole-seat pin the seat's first entry decides. An entry of the other
 * family is refused as `protocol` before its weight is looked at: it could
 * never be tried, drained or not.
 */
export function checkPin(pin: Pin, route: string, chain: readonly PinChainEntry[], family: Family, seats: ReadonlySet<string>): PinCheck {
  if (pin.seat === '' || pin.model === '' || !seats.has(pin.seat)) {
    return refuse(pin, 'unknown', pin.seat === '' || pin.model === '' ? 'write SEAT or SEAT/MODEL' : `no seat "${echo(pin.seat)}"`);
  }
  const index = chain.findIndex((e) => e.seat === pin.seat && (pin.model === null || e.model === pin.model));
  if (index === -1) {
    const what = pin.model === null ? `on seat "${pin.seat}"` : `"${pin.seat}/${echo(pin.model)}"`;
    return refuse(pin, 'not_in_chain', `route "${route}" has no target ${what}`);
  }
  const entry = chain[index]!;
  if (entry.family !== family) {
    return refuse(pin, 'protocol', `${entry.seat}/${entry.model} speaks the ${entry.family} protocol, this request ${family}`);
  }
  if (entry.weight === 0) return refuse(pin, 'drained', `${entry.seat}/${entry.model} has weight 0 in route "${route}"`);
  return { ok: true, index };
}

const MAX_ECHO = 200;

/** What the agent wrote, cut to a readable length for the message. */
function echo(text: string): string {
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
}

function refuse(pin: Pin, reason: PinRefusal, why: string): PinCheck {
  return { ok: false, reason, message: `pin "${echo(pin.text)}" refused: ${reason} (${why})` };
}
