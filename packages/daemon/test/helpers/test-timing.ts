/**
 * Timeouts for the tests whose subject is a timeout: short, so that such a
 * test waits about a second, and far above what a healthy fake upstream needs
 * to answer, so that only the hostile one times out even on two busy cores.
 *
 * undici checks `first_byte_ms` and `idle_ms` on a clock of its own that ticks
 * about every half second, and a timer fires on the first tick after it is
 * due, at the earliest on the second tick after it was armed. So 500 ms fires
 * between half a second and a second after the request went out; a smaller
 * value would not make a test faster, only the margin for the healthy seat
 * thinner, and a larger one costs a tick more per timeout.
 */
export const FAST_TIMEOUTS = { connect_ms: 2_000, first_byte_ms: 500, idle_ms: 500 } as const;

/**
 * A cooldown the test waits out (tripped → probe_ready) before it acts.
 * Nothing in those tests has to happen while the breaker is still cooling
 * down, so it can be as short as the breaker's timer allows.
 */
export const SHORT_COOLDOWN_SECS = 0.1;
