import { z } from 'zod';

/**
 * The demo scenario file (see docs/demo-scenarios.md). Every object is strict
 * so a typo is an error naming its path, exactly like routeplane.yaml. Times
 * are scenario seconds: `--speed X` divides them all.
 */

const seatId = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected an id of [a-z0-9][a-z0-9._-]*');

/** `[min, max]`: each use picks uniformly in between. */
function range(min: number, label: string) {
  return z.tuple([z.number().min(min), z.number().min(min)]).refine(([a, b]) => a <= b, `expected [min, max] ${label} with min <= max`);
}

const phaseWindow = {
  /** scenario second the phase starts (inclusive) */
  from: z.number().nonnegative(),
  /** scenario second it ends (exclusive); omitted = never */
  to: z.number().positive().optional(),
  /** limit the phase to one model of the seat; omitted = the whole seat */
  model: z.string().min(1).optional(),
};

export const phaseSchema = z.discriminatedUnion('phase', [
  z.strictObject({ ...phaseWindow, phase: z.literal('ok') }),
  /** 402: the seat's credit ran out (topped up when the phase ends) */
  z.strictObject({ ...phaseWindow, phase: z.literal('credit_out') }),
  /** 429 with Retry-After: `phase_end` (seconds left in the phase) or a fixed number of seconds */
  z.strictObject({
    ...phaseWindow,
    phase: z.literal('rate_limited'),
    retry_after: z.union([z.literal('phase_end'), z.number().positive()]).default('phase_end'),
  }),
  /** every request answers this 5xx */
  z.strictObject({
    ...phaseWindow,
    phase: z.literal('server_error'),
    status: z.number().int().min(500).max(599).default(500),
  }),
  /** answers, but `factor` times slower (first token and every token) */
  z.strictObject({ ...phaseWindow, phase: z.literal('slow'), factor: z.number().min(1).default(4) }),
]);

export const scenarioSeatSchema = z.strictObject({
  id: seatId,
  provider: z.enum(['anthropic', 'openai']),
  models: z.array(z.string().min(1)).min(1, 'a seat needs at least one model'),
  /** one line for the banner: what this seat will go through */
  story: z.string().optional(),
  timeline: z.array(phaseSchema).default([]),
});

export const scenarioRouteSchema = z.strictObject({
  model: z.string().min(1),
  /** share of agent requests sent to this route, relative to the others */
  weight: z.number().nonnegative().default(1),
  chain: z.array(z.string().regex(/^[^/\s]+\/\S+$/, 'expected "seat/model"')).min(1, 'a chain needs at least one target'),
});

export const scenarioSchema = z.strictObject({
  name: z.string().min(1).default('scenario'),
  description: z.string().optional(),
  /** replay the timeline every N scenario seconds; null plays it once */
  repeat_every: z.number().positive().nullable().default(null),
  influence: z
    .strictObject({
      enabled: z.boolean().default(true),
      cooldown_secs: z.number().positive().default(8),
      max_cooldown_secs: z.number().positive().default(60),
      trip_threshold: z.number().int().min(1).default(3),
      window_secs: z.number().positive().default(30),
    })
    .prefault({}),
  pacing: z
    .strictObject({
      first_token_secs: range(0, 'seconds').default([0.25, 0.7]),
      token_secs: range(0, 'seconds').default([0.012, 0.03]),
      reply_tokens: range(1, 'tokens').default([20, 80]),
      /** how long an error answer takes */
      error_secs: range(0, 'seconds').default([0.03, 0.12]),
    })
    .prefault({}),
  agents: z
    .strictObject({
      /** fraction of requests sent with "stream": true */
      stream_share: z.number().min(0).max(1).default(0.6),
      /** pause between one answer and an agent's next request */
      think_secs: range(0, 'seconds').default([0.3, 1.5]),
    })
    .prefault({}),
  seats: z.array(scenarioSeatSchema).min(1, 'declare at least one seat'),
  routes: z.array(scenarioRouteSchema).min(1, 'declare at least one route'),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioSeat = z.infer<typeof scenarioSeatSchema>;
export type Phase = z.infer<typeof phaseSchema>;
export type Pacing = Scenario['pacing'];
export type Range = readonly [number, number];
