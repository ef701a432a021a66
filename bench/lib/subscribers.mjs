// Control-socket subscribers, in their own process (pinned beside the load
// generator): each connection sends `subscribe` and counts the event lines it
// receives. Counting newlines is all they do — what is measured is the
// daemon's cost of pushing events, not a client's cost of reading them.
import net from 'node:net';
import { answerUsage } from './child-usage.mjs';

const socketPath = process.env.BENCH_SOCKET ?? '';
/** @type {{socket: net.Socket, events: number, overflowed: boolean}[]} */
let clients = [];

function attachOne() {
  return new Promise((resolve, reject) => {
    const client = { socket: net.connect(socketPath), events: 0, overflowed: false };
    let replied = false;
    let head = '';
    const timer = setTimeout(() => reject(new Error('subscribe: no reply within 5 s')), 5000);
    client.socket.on('error', (err) => (replied ? undefined : reject(err)));
    client.socket.on('connect', () => client.socket.write('{"id":1,"cmd":"subscribe"}\n'));
    client.socket.on('data', (chunk) => {
      if (!replied) {
        head += chunk.toString('utf8');
        const nl = head.indexOf('\n');
        if (nl === -1) return;
        const reply = JSON.parse(head.slice(0, nl));
        clearTimeout(timer);
        if (reply.ok !== true) return reject(new Error(`subscribe refused: ${JSON.stringify(reply)}`));
        replied = true;
        chunk = Buffer.from(head.slice(nl + 1));
        resolve(client);
      }
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) client.events++;
      if (chunk.includes('"overflow"')) client.overflowed = true;
    });
  });
}

process.on('message', async (msg) => {
  try {
    if (msg?.type === 'attach') {
      for (const c of clients) c.socket.destroy();
      clients = await Promise.all(Array.from({ length: msg.count }, attachOne));
      process.send({ type: 'attached', id: msg.id, count: clients.length });
    } else if (msg?.type === 'counts') {
      process.send({
        type: 'counts',
        id: msg.id,
        events: clients.map((c) => c.events),
        overflowed: clients.some((c) => c.overflowed),
        open: clients.filter((c) => !c.socket.destroyed).length,
      });
    }
  } catch (err) {
    process.send({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) });
  }
});
process.send({ type: 'ready' });
answerUsage(() => {
  for (const c of clients) c.socket.destroy();
});
