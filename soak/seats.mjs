/**
 * The fake seats: real node:http servers on 127.0.0.1, one per seat, each
 * rolling a fault (or a healthy answer) for every request that reaches it.
 * They count what the soak checks at the end: every TCP connection opened to
 * them, which of those still have a request in progress, and which are open.
 *
 * Idle keep-alive connections are never closed by the seats (no keepAliveTimeout),
 * so "no upstream socket left open" at the end is the daemon's own doing.
 */
import { createServer } from 'node:http';
import { answerWell, FAULTS, faultTable } from './faults.mjs';

export async function startSeats(specs, random, onArrival) {
  const seats = [];
  let changeWaiters = [];
  const changed = () => {
    const waiters = changeWaiters;
    changeWaiters = [];
    for (const wake of waiters) wake();
  };
  for (const spec of specs)
    seats.push(
      await startSeat(spec, random, faultTable(spec.faultScale ?? 1, spec.rateLimitScale ?? spec.faultScale ?? 1), onArrival, changed),
    );
  return {
    seats,
    /** connections open right now, over all seats */
    openSockets: () => seats.reduce((n, s) => n + s.sockets.size, 0),
    /** connections with a request whose response has not ended */
    busySockets: () => seats.reduce((n, s) => n + [...s.sockets].filter((sock) => sock.busy > 0).length, 0),
    faultCounts() {
      const total = {};
      for (const s of seats) for (const [name, n] of Object.entries(s.faults)) total[name] = (total[name] ?? 0) + n;
      return total;
    },
    totalConnections: () => seats.reduce((n, s) => n + s.connections, 0),
    totalRequests: () => seats.reduce((n, s) => n + s.requests, 0),
    /** resolves once `predicate()` holds or `ms` have passed; woken by every response end and socket close */
    async waitFor(predicate, ms) {
      const deadline = Date.now() + ms;
      while (!predicate() && Date.now() < deadline) {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
          changeWaiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
    },
    async close() {
      for (const s of seats) {
        for (const sock of s.sockets) sock.destroy();
        await new Promise((resolve) => s.server.close(() => resolve()));
      }
    },
  };
}

async function startSeat(spec, random, table, onArrival, changed) {
  const seat = { ...spec, sockets: new Set(), connections: 0, requests: 0, faults: {}, server: null, url: '' };
  const server = createServer((req, res) => {
    const socket = req.socket;
    socket.busy = (socket.busy ?? 0) + 1;
    let done = false;
    const settle = () => {
      if (done) return;
      done = true;
      socket.busy--;
      changed();
    };
    res.once('finish', settle);
    res.once('close', settle);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      seat.requests++;
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
      const soakId = req.headers['x-soak-id'];
      if (typeof soakId === 'string') onArrival(soakId);
      const fault = random.weighted(table);
      seat.faults[fault] = (seat.faults[fault] ?? 0) + 1;
      const ctx = { provider: spec.provider, model: String(body.model), stream: body.stream === true, random };
      try {
        if (fault === 'ok') answerWell(req, res, ctx);
        else FAULTS[fault][1](req, res, ctx);
      } catch {
        res.destroy();
      }
    });
  });
  // no idle timeout of our own and no keep-alive hint: only the daemon closes its idle connections
  server.keepAliveTimeout = 0;
  server.requestTimeout = 0;
  server.on('connection', (socket) => {
    seat.connections++;
    seat.sockets.add(socket);
    socket.once('close', () => {
      seat.sockets.delete(socket);
      changed();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  seat.server = server;
  seat.url = `http://127.0.0.1:${server.address().port}`;
  return seat;
}
