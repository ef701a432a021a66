import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notifyWarnings } from '../src/config/notify-checks.js';
import { formatIssue, formatWarning, parseConfig } from '../src/index.js';

/**
 * The keys of what the seats did: `price` on seats and targets, `currency`,
 * `notify` and `decision_log.keep` — defaults, and each error at its leaf
 * path in plain words.
 */
const env = { KEY_A: 'a', PATH: '' };
const SEATS = `seats:
  - id: a
    provider: anthropic
    base_url: "https://x"
    api_key_env: KEY_A`;
const ROUTES = `routes:
  - model: r
    chain:
      - { seat: a, model: m }`;

function check(extra: string, seatExtra = '', targetExtra = ''): { errors: string[]; warnings: string[]; config: unknown } {
  const text = `${SEATS}\n${seatExtra}\n${ROUTES.replace('model: m }', `model: m${targetExtra} }`)}\n${extra}\n`;
  const result = parseConfig(text, 'rp.yaml', env);
  return {
    errors: result.ok ? [] : result.issues.map(formatIssue),
    // influence is off in these files; that warning is not what is tested here
    warnings: result.warnings.map(formatWarning).filter((w) => !w.includes('influence.enabled')),
    config: result.ok ? result.config : null,
  };
}

describe('defaults', () => {
  it('no price, USD, no notify, three rotated decision logs kept', () => {
    const { errors, config } = check('');
    expect(errors).toEqual([]);
    expect(config).toMatchObject({
      currency: 'USD',
      notify: null,
      decision_log: { keep: 3 },
      seats: [{ price: null }],
      routes: [{ chain: [{ price: null }] }],
    });
  });

  it('a price part not given counts 0; a currency is any 3 letters, upper-cased', () => {
    const { errors, config } = check('currency: eur', '    price: { input: 3, output: 15 }', ', price: { cache_read: 0.3 }');
    expect(errors).toEqual([]);
    expect(config).toMatchObject({
      currency: 'EUR',
      seats: [{ price: { input: 3, output: 15, cache_read: 0, cache_write: 0 } }],
      routes: [{ chain: [{ price: { input: 0, output: 0, cache_read: 0.3, cache_write: 0 } }] }],
    });
  });

  it('notify sends every kind unless `on` lists some', () => {
    const all = check('notify: { webhook: "http://127.0.0.1:9/hook" }').config as { notify: unknown };
    expect(all.notify).toEqual({
      command: null,
      webhook: 'http://127.0.0.1:9/hook',
      on: ['credit', 'quota', 'key_rejected', 'recovered', 'fail_open', 'extra_usage', 'store'],
    });
    const some = check('notify: { command: [/bin/true], on: [quota, recovered] }').config as { notify: unknown };
    expect(some.notify).toEqual({ command: ['/bin/true'], webhook: null, on: ['quota', 'recovered'] });
  });
});

describe('each error at its leaf path', () => {
  it.each([
    ['seat price below 0', '', '    price: { input: -1 }', '', 'rp.yaml: seats[0].price.input: expected a number ≥ 0 (line 6)'],
    [
      'seat price not a number',
      '',
      '    price: { output: "cheap" }',
      '',
      'rp.yaml: seats[0].price.output: expected a number ≥ 0, got "cheap" (line 6)',
    ],
    [
      'a price part misspelt',
      '',
      '    price: { cache_reads: 1 }',
      '',
      'rp.yaml: seats[0].price.cache_reads: unknown key (did you mean cache_read?) (line 6)',
    ],
    [
      'target price below 0',
      '',
      '',
      ', price: { cache_write: -0.5 }',
      'rp.yaml: routes[0].chain[0].price.cache_write: expected a number ≥ 0 (line 10)',
    ],
    ['currency', 'currency: dollars', '', '', 'rp.yaml: currency: expected a 3-letter currency code (USD, EUR, …) (line 11)'],
    ['decision_log.keep 0', 'decision_log: { keep: 0 }', '', '', 'rp.yaml: decision_log.keep: must be at least 1 (line 11)'],
    [
      'decision_log.keep 1.5',
      'decision_log: { keep: 1.5 }',
      '',
      '',
      'rp.yaml: decision_log.keep: expected a whole number, got 1.5 (line 11)',
    ],
    [
      'notify kind',
      'notify: { webhook: "http://h/x", on: [quota, cost] }',
      '',
      '',
      'rp.yaml: notify.on[1]: expected one of "credit", "quota", "key_rejected", "recovered", "fail_open", "extra_usage", "store", got "cost" (line 11)',
    ],
    ['notify webhook', 'notify: { webhook: "ftp://h/x" }', '', '', 'rp.yaml: notify.webhook: expected an http(s) URL (line 11)'],
    [
      'notify command empty',
      'notify: { command: [] }',
      '',
      '',
      'rp.yaml: notify.command: needs the program to run (then its arguments) (line 11)',
    ],
    ['notify unknown key', 'notify: { webhook: "http://h/x", url: "http://h/y" }', '', '', 'rp.yaml: notify.url: unknown key (line 11)'],
  ])('%s', (_what, extra, seatExtra, targetExtra, error) => {
    expect(check(extra, seatExtra, targetExtra).errors).toEqual([error]);
  });
});

describe('notify warnings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rp-notify-'));
  const program = join(dir, 'tell-me');
  writeFileSync(program, '#!/bin/sh\n');
  chmodSync(program, 0o755);
  const notRunnable = join(dir, 'not-runnable');
  writeFileSync(notRunnable, '');

  it('a program found on PATH, or given by an absolute path it can run, is fine', () => {
    expect(notifyWarnings({ notify: { command: ['tell-me', 'Routeplane'] } }, { PATH: `/nonexistent:${dir}` })).toEqual([]);
    expect(notifyWarnings({ notify: { command: [program] } }, { PATH: '' })).toEqual([]);
  });

  it('warns, never errs, when the program is not on PATH, cannot run, or is a relative path', () => {
    const { errors, warnings } = check('notify: { command: [notify-send-missing, Routeplane] }');
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      'rp.yaml: warning: notify.command[0]: program "notify-send-missing" is not on PATH: notifications by command will fail until it is (line 11)',
    ]);
    expect(notifyWarnings({ notify: { command: [notRunnable] } }, {})).toEqual([
      { path: ['notify', 'command', 0], message: `${notRunnable} is not a program this user can run` },
    ]);
    expect(notifyWarnings({ notify: { command: ['bin/tell'] } }, {})[0]?.message).toMatch(/relative to wherever serve starts/);
  });

  it('a notify that sends nowhere says so', () => {
    expect(check('notify: { on: [quota] }').warnings).toEqual([
      'rp.yaml: warning: notify: has neither command nor webhook: no notification is sent (line 11)',
    ]);
  });
});
