import { z } from 'zod';

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

export const serverSchema = z
  .strictObject({
    listen: hostPort.default('127.0.0.1:4141'),
    auth_token_env: envVarName.nullable().default(null),
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
  })
  .prefault({});

export const timeoutsSchema = z
  .strictObject({
    connect_ms: z.number().int().positive().default(10_000),
    first_byte_ms: z.number().int().positive().default(120_000),
    idle_ms: z.number().int().positive().default(120_000),
  })
  .prefault({});

export const seatSchema = z.strictObject({
  id: seatId,
  provider: providerSchema,
  base_url: httpUrl,
  api_key_env: envVarName,
  headers: z.record(z.string(), z.string()).default({}),
});

export const targetRefSchema = z.strictObject({
  seat: seatId,
  model: z.string().min(1),
});

export const routeSchema = z.strictObject({
  model: z.string().min(1),
  chain: z.array(targetRefSchema).min(1, 'a chain needs at least one target'),
});

export const influenceSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    cooldown_secs: z.number().positive().default(60),
    max_cooldown_secs: z.number().positive().default(900),
    trip_threshold: z.number().int().min(1).default(3),
    window_secs: z.number().positive().default(300),
  })
  .prefault({});

export const configSchema = z.strictObject({
  server: serverSchema,
  control: controlSchema,
  decision_log: decisionLogSchema,
  timeouts: timeoutsSchema,
  seats: z.array(seatSchema).min(1, 'declare at least one seat'),
  routes: z.array(routeSchema).min(1, 'declare at least one route'),
  influence: influenceSchema,
});

export type Config = z.infer<typeof configSchema>;
export type ConfigInput = z.input<typeof configSchema>;
export type Provider = z.infer<typeof providerSchema>;
export type SeatConfig = z.infer<typeof seatSchema>;
export type RouteConfig = z.infer<typeof routeSchema>;
export type TargetRef = z.infer<typeof targetRefSchema>;
export type InfluenceConfig = z.infer<typeof influenceSchema>;
export type TimeoutsConfig = z.infer<typeof timeoutsSchema>;
