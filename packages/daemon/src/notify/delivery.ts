import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { formatDuration } from '@routeplane/shared';
import type { Notification } from './notification.js';

/** How long a command may run, or a webhook take to answer. */
export const DELIVERY_LIMIT_MS = 5_000;

/** Delivered, or why not — in words that name no credential (a program's name, a webhook's host). */
export type Delivery = { ok: true } | { ok: false; why: string };

/** What is in flight, so a closing daemon can end it. */
export interface InFlight {
  stop(): void;
}

/**
 * Runs `argv` without a shell, the notification's text as its last
 * argument; its output is discarded. Past `limitMs` it is killed. Never
 * throws: a program that is missing or fails is an outcome.
 */
export function runCommand(
  argv: readonly string[],
  text: string,
  limitMs = DELIVERY_LIMIT_MS,
): { done: Promise<Delivery>; inFlight: InFlight } {
  const program = argv[0] ?? '';
  const name = `command ${basename(program)}`;
  let stop = () => {};
  const done = new Promise<Delivery>((resolve) => {
    const child = spawn(program, [...argv.slice(1), text], { stdio: 'ignore', shell: false });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ ok: false, why: `${name} did not finish within ${formatDuration(limitMs)}` });
    }, limitMs);
    stop = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
    };
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, why: `${name} could not start (${err.code ?? 'error'})` });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, why: code !== null ? `${name} exited with ${code}` : `${name} was ended by ${signal}` });
    });
  });
  return { done, inFlight: { stop: () => stop() } };
}

/** POSTs the notification as JSON; past `limitMs` without a whole answer it is given up. No retries. */
export function postWebhook(
  url: string,
  notification: Notification,
  limitMs = DELIVERY_LIMIT_MS,
): { done: Promise<Delivery>; inFlight: InFlight } {
  const name = `webhook to ${hostOf(url)}`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), limitMs);
  const { kind, text, seat, model, route, until, ts } = notification;
  const done = (async (): Promise<Delivery> => {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind, text, seat, model, route, until, ts }),
        signal: abort.signal,
        redirect: 'manual',
      });
      await res.arrayBuffer();
      return res.ok ? { ok: true } : { ok: false, why: `${name} answered ${res.status}` };
    } catch (err) {
      if (abort.signal.aborted) return { ok: false, why: `${name} did not answer within ${formatDuration(limitMs)}` };
      const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
      return { ok: false, why: `${name} failed (${code ?? (err as Error).name})` };
    } finally {
      clearTimeout(timer);
    }
  })();
  return { done, inFlight: { stop: () => abort.abort() } };
}

/** A webhook named by its host alone: its path or query may hold a token. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'its URL';
  }
}
