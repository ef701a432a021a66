import type { Provider, SeatAuth } from './schema.js';

/**
 * A seat's `auth` as it works (docs/seats.md): what it says, else the
 * provider's own way of taking a key — `x-api-key` for Anthropic, `bearer`
 * for OpenAI, as every seat worked before `auth` existed.
 */
export function seatAuth(seat: { readonly provider: Provider; readonly auth?: SeatAuth | undefined }): SeatAuth {
  return seat.auth ?? (seat.provider === 'anthropic' ? 'x-api-key' : 'bearer');
}

/** The kinds that send a key of the seat's own, read from `api_key_env`. */
export function sendsSeatKey(auth: SeatAuth): boolean {
  return auth === 'x-api-key' || auth === 'bearer';
}
