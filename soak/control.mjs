/**
 * The daemon's control socket, spoken directly (NDJSON): one-shot commands,
 * and a subscription that counts the events it is sent.
 */
import { createConnection } from 'node:net';

function lines(socket, onLine) {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('data', (text) => {
    buffer += text;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onLine(JSON.parse(line));
    }
  });
}

export function command(socketPath, cmd, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${cmd}: no reply from the control socket within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (err) => (clearTimeout(timer), reject(err)));
    lines(socket, (reply) => {
      clearTimeout(timer);
      socket.destroy();
      if (reply.ok) resolve(reply.result);
      else reject(new Error(`${cmd}: ${reply.error.code}: ${reply.error.message}`));
    });
    socket.once('connect', () => socket.write(`${JSON.stringify({ id: 1, cmd })}\n`));
  });
}

/** Counts streamed events by kind (decisions, breaker actions, overflow). */
export async function subscribeCounting(socketPath) {
  const counts = { decision: 0, overflow: 0, breaker: {}, reloads: { ok: 0, refused: 0 } };
  let waiters = [];
  const socket = createConnection(socketPath);
  await new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', resolve);
  });
  socket.on('error', () => {});
  let replied;
  const subscribed = new Promise((resolve) => (replied = resolve));
  lines(socket, (line) => {
    if ('id' in line) return replied();
    const event = line.event;
    if (event.type === 'decision') counts.decision++;
    else if (event.type === 'overflow') counts.overflow++;
    else if (event.type === 'breaker') counts.breaker[event.action] = (counts.breaker[event.action] ?? 0) + 1;
    else if (event.type === 'reload') counts.reloads[event.ok ? 'ok' : 'refused']++;
    const wake = waiters;
    waiters = [];
    for (const w of wake) w();
  });
  socket.once('close', () => {
    for (const w of waiters) w();
  });
  socket.write(`${JSON.stringify({ id: 1, cmd: 'subscribe' })}\n`);
  await subscribed;
  return {
    counts,
    /** resolves once `n` decisions were streamed, the stream ended, or `ms` passed */
    async decisions(n, ms) {
      const deadline = Date.now() + ms;
      while (counts.decision < n && counts.overflow === 0 && !socket.destroyed && Date.now() < deadline) {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return counts.decision;
    },
    close: () => socket.destroy(),
  };
}
