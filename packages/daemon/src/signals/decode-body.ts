import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { firstValue, type HeaderValue } from './retry-after.js';
import { MAX_ERROR_BODY_BYTES } from './upstream-error.js';

/**
 * An upstream body as the classifier reads it: decoded from its
 * `content-encoding`. Agents' SDKs ask for compressed answers
 * (`accept-encoding` is forwarded as they sent it) and providers compress
 * their JSON errors, so without this most real error bodies would read as
 * noise and be classified by status alone. The relayed bytes are untouched:
 * this copy is only read.
 *
 * The bytes may be a prefix (the first chunk of a 2xx): the decoders flush
 * what they have instead of failing on a truncated input. Output is capped at
 * 65,536 bytes, the most an error body is read — a bigger error is classified by status alone, and
 * a small compressed chunk cannot expand into megabytes here.
 * Null when the body cannot be read: an unknown or stacked encoding, corrupt
 * data, or too large once decoded.
 */
export function decodedBody(body: Buffer, contentEncoding: HeaderValue): Buffer | null {
  const encoding = firstValue(contentEncoding)?.toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return body;
  try {
    switch (encoding) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body, ZLIB_PARTIAL);
      case 'deflate':
        // "deflate" is meant to be zlib-wrapped; some servers send it raw
        return body[0] === 0x78 ? inflateSync(body, ZLIB_PARTIAL) : inflateRawSync(body, ZLIB_PARTIAL);
      case 'br':
        return brotliDecompressSync(body, BROTLI_PARTIAL);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

const ZLIB_PARTIAL: ZlibOptions = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_ERROR_BODY_BYTES };
const BROTLI_PARTIAL = { finishFlush: constants.BROTLI_OPERATION_FLUSH, maxOutputLength: MAX_ERROR_BODY_BYTES };
