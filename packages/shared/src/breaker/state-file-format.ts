import { z } from 'zod';
import { type Breaker, type BreakerKind, type BreakerSubject, breakerKey, type Signal } from './breaker.js';

/**
 * What `influence.state_file` holds: every active breaker as the Breaker object of protocol v2, and
 * every non-zero streak of model errors, stamped with a format version so a
 * later format can be told apart. Parsed strictly: a file that is not
 * exactly what a daemon writes is set aside, never half-read.
 */

export const STATE_FILE_VERSION = 1;

/** Epoch milliseconds; fractions occur (fractional cooldowns), infinities do not. */
const time = z.number();
const count = z.number().int().nonnegative();
const name = z.string().min(1);

export const signalSchema = z.strictObject({
  status: z.number().int().nullable(),
  type: z.string().nullable(),
  code: z.string().nullable(),
  header: z.string().nullable(),
  message: z.string().nullable(),
}) satisfies z.ZodType<Signal>;

/** Which kinds a breaker of each cover can be. */
const KINDS_OF_COVER: Record<Breaker['scope'], readonly BreakerKind[]> = {
  seat: ['credit', 'key_rejected', 'quota', 'rate_limit'],
  model: ['quota', 'errors'],
  provider: ['errors'],
};

/** The subject a breaker's fields name, or why they name none. */
function subjectOf(b: Pick<Breaker, 'scope' | 'seat' | 'upstream' | 'model'>): BreakerSubject | string {
  switch (b.scope) {
    case 'seat':
      if (b.seat === null || b.upstream !== null || b.model !== null) return 'a seat breaker names a seat and no upstream or model';
      return { scope: 'seat', seat: b.seat };
    case 'model':
      if (b.seat === null || b.model === null || b.upstream !== null) return 'a model breaker names a seat and a model and no upstream';
      return { scope: 'model', seat: b.seat, model: b.model };
    case 'provider':
      if (b.upstream === null || b.model === null || b.seat !== null) return 'a provider breaker names an upstream and a model and no seat';
      return { scope: 'provider', upstream: b.upstream, model: b.model };
  }
}

export const breakerSchema = z
  .strictObject({
    key: name,
    kind: z.enum(['credit', 'quota', 'rate_limit', 'errors', 'key_rejected']),
    scope: z.enum(['seat', 'model', 'provider']),
    seat: name.nullable(),
    upstream: name.nullable(),
    model: name.nullable(),
    phase: z.enum(['open', 'probe_ready', 'probing']),
    since: time,
    until: time.nullable(),
    reset_at: time.nullable(),
    cooldown_ms: z.number().nonnegative().nullable(),
    failed_probes: count,
    refused_count: count,
    skipped_count: count,
    claimed_at: time.nullable(),
    signal: signalSchema.nullable(),
  })
  .superRefine((b, ctx) => {
    if (!KINDS_OF_COVER[b.scope].includes(b.kind)) {
      ctx.addIssue({ code: 'custom', path: ['kind'], message: `a ${b.kind} breaker cannot have scope ${b.scope}` });
      return;
    }
    const subject = subjectOf(b);
    if (typeof subject === 'string') {
      ctx.addIssue({ code: 'custom', path: ['scope'], message: subject });
      return;
    }
    const key = breakerKey(b.kind, subject);
    if (b.key !== key) ctx.addIssue({ code: 'custom', path: ['key'], message: `does not match its breaker (expected "${key}")` });
  }) satisfies z.ZodType<Breaker>;

/** A streak of model errors: one target's or one provider model's across its seats. */
export const savedStreakSchema = z.discriminatedUnion('scope', [
  z.strictObject({
    scope: z.literal('model'),
    seat: name,
    model: name,
    count: count.min(1),
    last_failure_at: time,
  }),
  z.strictObject({
    scope: z.literal('provider'),
    upstream: name,
    model: name,
    count: count.min(1),
    last_failure_at: time,
    /** the seats whose failures make up the count: the provider layer trips only on two or more */
    seats: z.array(name),
  }),
]);

export type SavedStreak = z.infer<typeof savedStreakSchema>;

export const stateFileSchema = z
  .strictObject({
    version: z.literal(STATE_FILE_VERSION),
    saved_at: time,
    /** the daemon that wrote it (`hostname:pid`) */
    saved_by: z.string(),
    breakers: z.array(breakerSchema),
    streaks: z.array(savedStreakSchema),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.breakers.forEach((b, i) => {
      if (seen.has(b.key)) ctx.addIssue({ code: 'custom', path: ['breakers', i, 'key'], message: `"${b.key}" appears twice` });
      seen.add(b.key);
    });
  });

export type StateFile = z.infer<typeof stateFileSchema>;

export type StateFileParse = { ok: true; state: StateFile } | { ok: false; why: string };

/**
 * Reads a parsed JSON value as a state file: a newer format says so by its
 * version; anything else that is off names the first place it is wrong.
 */
export function parseStateFile(json: unknown): StateFileParse {
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const version = (json as { version?: unknown }).version;
    if (typeof version === 'number' && version !== STATE_FILE_VERSION) {
      return { ok: false, why: `format version ${version}; this daemon reads version ${STATE_FILE_VERSION}` };
    }
  }
  const parsed = stateFileSchema.safeParse(json);
  if (parsed.success) return { ok: true, state: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'the document' : issue.path.join('.');
  return { ok: false, why: `${where}: ${issue?.message ?? 'not a state file'}` };
}
