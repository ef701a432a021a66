import { z } from 'zod';
import { valueWords } from './plain-words.js';

/**
 * The routeplane.yaml schema. Every object is strict: an unknown key is an
 * error naming its path, because a typo must never read as configured.
 */

const seatId = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected an id of [a-z0-9][a-z0-9._-]*');

const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name');

const hostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[^:\s]+):\d{1,5}$/, { message: 'expected host:port (e.g. 127.0.0.1:4141)', abort: true })
  .refine((s) => Number(s.slice(s.lastIndexOf(':') + 1)) <= 65535, 'port must be 0..65535');

const httpUrl = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}, 'expected an http(s) URL');

export const providerSchema = z.enum(['anthropic', 'openai']);

export const laneSchema = z.enum(['foreground', 'background']);

/** An agent identity with its own token, scopes and default lane. */
export const agentSchema = z.strictObject({
  id: seatId,
  token_env: envVarName,
  allow: z.array(z.string().min(1)).default([]),
  deny: z.array(z.string().min(1)).default([]),
  lane: laneSchema.nullable().default(null),
});

export const serverSchema = z
  .strictObject({
    listen: hostPort.default('127.0.0.1:4141'),
    auth_token_env: envVarName.nullable().default(null),
    agents: z.array(agentSchema).default([]),
    body_limit_mb: z.number().positive().default(32),
  })
  .prefault({});

export const controlSchema = z
  .strictObject({
    socket: z.string().min(1).nullable().default(null),
  })
  .prefault({});

export const decisionLogSchema = z
  .strictObject({
    path: z
      .union([z.string().min(1), z.literal(false)])
      .nullable()
      .default(null),
    max_mb: z.number().positive().default(64),
    /** rotated files kept: `.1` (newest) … `.N` */
    keep: z.number().int().min(1).default(3),
  })
  .prefault({});

export const timeoutsSchema = z
  .strictObject({
    connect_ms: z.number().int().positive().default(10_000),
    first_byte_ms: z.number().int().positive().default(120_000),
    idle_ms: z.number().int().positive().default(120_000),
  })
  .prefault({});

/** How a seat proves who it is (docs/seats.md); absent: `x-api-key` for anthropic, `bearer` for openai. */
export const seatAuthSchema = z.enum(['x-api-key', 'bearer', 'passthrough', 'none']);

/** Replaces the inbound path's leading `/v1`: `""`, or `/…` without a trailing `/`. */
const apiPath = z
  .string()
  .refine(
    (s) => s === '' || (s.startsWith('/') && !s.endsWith('/')),
    'expected "" or a path that starts with "/" and does not end with "/"',
  );

/** A seat header's value: literal, or read from the environment at start (then a secret). */
export const seatHeaderValueSchema = z.union([z.string(), z.strictObject({ env: envVarName })]);
/** A price in currency units per million tokens; a part not given counts 0. */
const pricePart = z
  .number({ error: (issue) => (issue.input === undefined ? undefined : `expected a number ≥ 0, got ${valueWords(issue.input)}`) })
  .min(0, 'expected a number ≥ 0')
  .default(0);

export const priceSchema = z.strictObject({
  input: pricePart,
  output: pricePart,
  cache_read: pricePart,
  cache_write: pricePart,
});

export const seatSchema = z.strictObject({
  id: seatId,
  provider: providerSchema,
  base_url: httpUrl,
  auth: seatAuthSchema.optional(),
  /** required for `x-api-key` and `bearer`; refused for `passthrough` and `none` (seat-checks.ts) */
  api_key_env: envVarName.optional(),
  api_path: apiPath.default('/v1'),
  headers: z.record(z.string(), seatHeaderValueSchema).default({}),
  /** the last slice of the seat's usage window kept for foreground work */
  reserve_pct: z.number().min(0).max(99).default(0),
  /** `avoid`: an answer billed past the plan trips the seat's quota breaker until the plan resets */
  extra_usage: z.enum(['allow', 'avoid']).default('allow'),
  /** the price of every target of the seat that has none of its own */
  price: priceSchema.nullable().default(null),
});

export const targetRefSchema = z.strictObject({
  seat: seatId,
  model: z.string().min(1),
  /** a share of sessions under `balance: spread`; 0 drains the target */
  weight: z.number().min(0).default(1),
  /** declared price, for `balance: cost` */
  cost_per_mtok: z.number().min(0).nullable().default(null),
  /** replaces the seat's whole price (parts are not merged) */
  price: priceSchema.nullable().default(null),
});

export const balanceSchema = z.enum(['ordered', 'spread', 'cost', 'latency', 'drain']);

/** What a retry may follow: a 429, a model error with a status, a timeout or a dropped connection. */
export const retryOnSchema = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.enum(['429', '5xx', 'timeout']));

/** Retries within a target. */
export const retrySchema = z.strictObject({
  max_attempts: z.number().int().min(1).max(5).default(1),
  retry_on: z.array(retryOnSchema).default(['429', '5xx', 'timeout']),
  backoff_ms: z.number().int().min(50).max(10_000).default(500),
  jitter: z.boolean().default(true),
});

export const routeSchema = z.strictObject({
  model: z.string().min(1),
  balance: balanceSchema.default('ordered'),
  /** the lane of requests on this route when neither the header nor the agent names one */
  lane: laneSchema.nullable().default(null),
  retry: retrySchema.nullable().default(null),
  chain: z.array(targetRefSchema).min(1, 'a chain needs at least one target'),
});

/** Breakers shared by several daemons through Redis. */
export const sharedStoreSchema = z.strictObject({
  redis_url: z.string().min(1).default('redis://127.0.0.1:6379/0'),
  password_env: envVarName.nullable().default(null),
  key_prefix: z.string().default('routeplane:'),
  timeout_ms: z.number().int().positive().default(50),
});

export const influenceSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    cooldown_secs: z.number().positive().default(60),
    max_cooldown_secs: z.number().positive().default(900),
    trip_threshold: z.number().int().min(1).default(3),
    window_secs: z.number().positive().default(300),
    /** the longest a provider's stated reset may hold a quota breaker open (7 days) */
    max_quota_secs: z.number().positive().default(604_800),
    /** a 401/403 from a seat trips it like an empty account */
    trip_on_rejected_key: z.boolean().default(true),
    /** where breakers are kept across restarts; null: a restart clears them */
    state_file: z.string().min(1).nullable().default(null),
    shared: sharedStoreSchema.nullable().default(null),
  })
  .prefault({});

/** What a notification is about; `on` lists the kinds that are sent. */
export const NOTIFY_KINDS = ['credit', 'quota', 'key_rejected', 'recovered', 'fail_open', 'extra_usage', 'store'] as const;

export const notifySchema = z.strictObject({
  /** run without a shell, the notification's text as its last argument */
  command: z.array(z.string().min(1)).min(1, 'needs the program to run (then its arguments)').nullable().default(null),
  /** gets a POST of the notification as JSON */
  webhook: httpUrl.nullable().default(null),
  on: z.array(z.enum(NOTIFY_KINDS)).default([...NOTIFY_KINDS]),
});

/** Display only: costs are shown in it, never converted. */
const currencySchema = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'expected a 3-letter currency code (USD, EUR, …)')
  .transform((code) => code.toUpperCase());

export const configSchema = z.strictObject({
  server: serverSchema,
  control: controlSchema,
  decision_log: decisionLogSchema,
  timeouts: timeoutsSchema,
  seats: z.array(seatSchema).min(1, 'declare at least one seat'),
  routes: z.array(routeSchema).min(1, 'declare at least one route'),
  /** requested model → route or alias; names may hold `*` */
  aliases: z.record(z.string().min(1), z.string().min(1)).default({}),
  influence: influenceSchema,
  currency: currencySchema.default('USD'),
  notify: notifySchema.nullable().default(null),
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
export type Provider = z.infer<typeof providerSchema>;
export type SeatConfig = z.infer<typeof seatSchema>;
export type SeatAuth = z.infer<typeof seatAuthSchema>;
export type SeatHeaderValue = z.infer<typeof seatHeaderValueSchema>;
export type RouteConfig = z.infer<typeof routeSchema>;
export type TargetRef = z.infer<typeof targetRefSchema>;
export type InfluenceConfig = z.infer<typeof influenceSchema>;
export type TimeoutsConfig = z.infer<typeof timeoutsSchema>;
export type AgentConfig = z.infer<typeof agentSchema>;
export type RetryConfig = z.infer<typeof retrySchema>;
export type SharedStoreConfig = z.infer<typeof sharedStoreSchema>;
export type LaneName = z.infer<typeof laneSchema>;
export type Price = z.infer<typeof priceSchema>;
export type NotifyConfig = z.infer<typeof notifySchema>;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];
