import { useInput, type Key } from 'ink';
import { useCallback, useRef } from 'react';

/**
 * One keyboard listener for the whole app that always calls the handler of
 * the latest render.
 *
 * Ink attaches a `useInput` listener in a passive effect, and re-attaches it
 * whenever the handler changes or `isActive` flips. Between a render and that
 * effect, a key (a fast typist, a terminal multiplexer sending two keys) would
 * reach a stale handler or none: `R` then `y` could lose the `y`. A stable
 * listener reading the latest handler from a ref has no such window; the
 * handler routes each key by mode, so a modal still gets keys first.
 */
export function useKeyHandler(handler: (input: string, key: Key) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(stable);
}
