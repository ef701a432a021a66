import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postWebhook, runCommand } from '../../src/notify/delivery.js';
import type { Notification } from '../../src/notify/notification.js';
import { closedPortUrl } from '../helpers/closed-port.js';

/**
 * Sending a notification, for real: a program run without a shell with the
 * text as its last argument, and a webhook POST to a local server — each
 * within its limit, each failure an outcome in words that name no
 * credential (a program by its name, a webhook by its host).
 */
const dir = mkdtempSync(join(tmpdir(), 'rp-notify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const notification: Notification = {
  kind: 'quota',
  text: 'seat max-1 spent its 5h window (quota) — resets 16:00 (in 2h14m); requests go to max-2',
  seat: 'max-1',
  model: null,
  route: null,
  until: 1_764_518_400_000,
  ts: 1_764_510_360_000,
};

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('command', () => {
  it('runs without a shell, the text as its last argument (quotes and $ stay as they are)', async () => {
    const out = join(dir, 'args.txt');
    const program = script('record', `for a in "$@"; do printf '%s\\n' "$a"; done > ${out}`);
    const text = `it's $HOME; "quoted" \`not run\``;
    expect(await runCommand([program, 'Routeplane', '--urgency=low'], text).done).toEqual({ ok: true });
    expect(readFileSync(out, 'utf8')).toBe(`Routeplane\n--urgency=low\n${text}\n`);
  });

  it('a program that fails, is missing, or runs past its limit is an outcome naming the program only', async () => {
    const failing = script('fails', 'exit 3');
    expect(await runCommand([failing, '--token=s3cret'], 'x').done).toEqual({ ok: false, why: 'command fails exited with 3' });
    expect(await runCommand([join(dir, 'no-such-program')], 'x').done).toEqual({
      ok: false,
      why: 'command no-such-program could not start (ENOENT)',
    });
    const hangs = script('hangs', 'exec sleep 30');
    expect(await runCommand([hangs], 'x', 300).done).toEqual({ ok: false, why: 'command hangs did not finish within 1s' });
  });
});

describe('webhook', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });
  async function server(handle: (body: string, res: import('node:http').ServerResponse) => void): Promise<string> {
    const s = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => handle(body, res));
    });
    servers.push(s);
    await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }

  it('POSTs {kind, text, seat, model, route, until, ts} as JSON', async () => {
    const received: Array<{ body: string }> = [];
    const url = await server((body, res) => {
      received.push({ body });
      res.writeHead(204).end();
    });
    expect(await postWebhook(`${url}/hook`, notification).done).toEqual({ ok: true });
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual(notification);
  });

  it('an error answer, no answer within the limit or a refused connection is an outcome naming the host, never the path', async () => {
    const url = await server((_body, res) => res.writeHead(500).end('no'));
    expect(await postWebhook(`${url}/T000/B000/s3cret-token`, notification).done).toEqual({
      ok: false,
      why: `webhook to ${new URL(url).host} answered 500`,
    });
    const silent = await server(() => {});
    expect(await postWebhook(`${silent}/s3cret`, notification, 300).done).toEqual({
      ok: false,
      why: `webhook to ${new URL(silent).host} did not answer within 1s`,
    });
    const closed = await closedPortUrl();
    expect(await postWebhook(`${closed}/s3cret`, notification).done).toEqual({
      ok: false,
      why: `webhook to ${new URL(closed).host} failed (ECONNREFUSED)`,
    });
  });
});
