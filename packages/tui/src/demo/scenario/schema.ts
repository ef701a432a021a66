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
  /**
   * the seat's credit ran out (topped up when the phase ends), said as the
   * real provider says it: Anthropic 400 "credit balance is too low",
   * OpenAI 429 `insufficient_quota`
   */
  z.strictObject({ ...phaseWindow, phase: z.literal('credit_out') }),
  /**
   * a subscription's usage window is used up until it resets: Anthropic 429
   * `rate_limit_error` with `anthropic-ratelimit-unified-status: rejected` and
   * `-reset`; OpenAI (Codex) 429 `usage_limit_reached` with `resets_at`.
   * `resets`: `phase_end` (default) or a number of seconds.
   */
  z.strictObject({
    ...phaseWindow,
    phase: z.literal('quota_out'),
    resets: z.union([z.literal('phase_end'), z.number().positive()]).default('phase_end'),
  }),
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

/**
 * The usage window a seat reports on every answer, as the real provider's
 * headers (Anthropic subscription: `anthropic-ratelimit-unified-5h-*`;
 * OpenAI: `x-ratelimit-*-requests`). Utilization follows `points` (scenario
 * second, fraction), linear in between, within each replay.
 */
export const usageSchema = z.strictObject({
  /** the window's name for an Anthropic seat (`5h`, `7d`); OpenAI seats report `requests` */
  window: z.enum(['5h', '7d']).default('5h'),
  points: z
    .array(z.tuple([z.number().nonnegative(), z.number().nonnegative()]))
    .min(1, 'give at least one [second, utilization] point')
    .refine((ps) => ps.every((p, i) => i === 0 || p[0] >= ps[i - 1]![0]), 'points must be in time order'),
  /** the scenario second (within each replay) the window resets; reported as its reset time */
  resets_at: z.number().nonnegative(),
});

export const scenarioSeatSchema = z.strictObject({
  id: seatId,
  provider: z.enum(['anthropic', 'openai']),
  models: z.array(z.string().min(1)).min(1, 'a seat needs at least one model'),
  /**
   * `key`: the seat has an API key of its own, which the daemon sends;
   * `passthrough`: the seat is the agents' own login (a Claude or ChatGPT
   * subscription), which they send and the daemon passes through
   */
  auth: z.enum(['key', 'passthrough']).default('key'),
  /** one line for the banner: what this seat will go through */
  story: z.string().optional(),
  usage: usageSchema.optional(),
  timeline: z.array(phaseSchema).default([]),
});

/** What the story is at a moment, in words, for `top`'s header and the log. */
export const sceneSchema = z.strictObject({
  /** scenario second (within each replay) it starts */
  at: z.number().nonnegative(),
  say: z.string().min(1),
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
  scenes: z.array(sceneSchema).default([]),
});

export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioSeat = z.infer<typeof scenarioSeatSchema>;
export type Phase = z.infer<typeof phaseSchema>;
export type SeatUsageCurve = z.infer<typeof usageSchema>;
export type Scene = z.infer<typeof sceneSchema>;
export type Pacing = Scenario['pacing'];
export type Range = readonly [number, number];
