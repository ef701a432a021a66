import { createConnection } from 'node:net';

/** Sends `commands` on one control-socket connection and resolves with as many reply lines, raw. */
export function controlLines(socketPath: string, commands: Array<Record<string, unknown>>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let buffer = '';
    const lines: string[] = [];
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      buffer += text;
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
      if (lines.length >= commands.length) {
        socket.destroy();
        resolve(lines);
      }
    });
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(commands.map((c, i) => `${JSON.stringify({ id: i + 1, ...c })}\n`).join(''));
    });
  });
}
