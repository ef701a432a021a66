import type { IncomingMessage } from 'node:http';
import { errorCodes } from 'fastify';

/**
 * Reads an agent's request body as bytes, once, whatever its content-type
 * (the proxy checks the JSON itself and forwards these same bytes). With a
 * content-length — what the SDKs send — each chunk is copied into one buffer
 * of that size as it arrives and then let go: an upload in progress holds
 * its body once, not its socket chunks as well until a final concatenation
 * (fastify's reader), which at 256 agents sending 200 KB contexts is memory
 * the GC only frees late. A chunked body is gathered and joined. The limits
 * and errors are fastify's own (413 past the limit, 400 when the length does
 * not match), so the app's error handler answers them as before.
 */
export function readAgentBodyBytes(payload: IncomingMessage, limit: number, done: (err: Error | null, body?: Buffer) => void): void {
  const declared = payload.headers['content-length'];
  const length = declared === undefined ? Number.NaN : Number(declared);
  if (length > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const known = Number.isSafeInteger(length) && length >= 0;
  const whole = known ? Buffer.allocUnsafe(length) : null;
  const chunks: Buffer[] = [];
  let received = 0;

  const finish = (err: Error | null, body?: Buffer): void => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(err, body);
  };
  const onData = (chunk: Buffer): void => {
    if (received + chunk.length > (whole?.length ?? limit)) {
      // past the declared length cannot happen (the HTTP parser stops there); past the limit can, when chunked
      finish(whole === null ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE() : new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    if (whole !== null) chunk.copy(whole, received);
    else chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = (): void => {
    if (whole !== null && received !== whole.length) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    finish(null, whole ?? Buffer.concat(chunks, received));
  };
  const onError = (err: Error & { statusCode?: number }): void => {
    if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
    finish(err);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
