/** How an agent judges the body it received, once it has read all of it. */
export type Completion =
  /** a 2xx whose body is whole: a JSON reply, or a stream that reached its final event */
  | 'complete'
  /** a non-2xx answer (an error body is still exactly one response) */
  | 'error_status'
  /** a stream that ended with the family's error event (failure after the first byte) */
  | 'stream_error'
  /** a 2xx body that stopped short or does not parse */
  | 'truncated';

export interface SseFrame {
  event: string | null;
  data: string;
}

/** Splits a complete SSE body into frames (blank-line separated; `data:` lines joined). */
export function parseSse(text: string): SseFrame[] {
  const frames: SseFrame[] = [];
  for (const block of text.replace(/\r\n/g, '\n').split('\n\n')) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (event !== null || data.length > 0) frames.push({ event, data: data.join('\n') });
  }
  return frames;
}

export function judgeBody(family: 'anthropic' | 'openai', status: number, stream: boolean, body: string): Completion {
  if (status < 200 || status > 299) return 'error_status';
  if (!stream) {
    try {
      JSON.parse(body);
      return 'complete';
    } catch {
      return 'truncated';
    }
  }
  const frames = parseSse(body);
  if (family === 'anthropic') {
    if (frames.some((f) => f.event === 'error')) return 'stream_error';
    return frames.at(-1)?.event === 'message_stop' ? 'complete' : 'truncated';
  }
  if (frames.some((f) => f.data.startsWith('{"error"'))) return 'stream_error';
  return frames.at(-1)?.data === '[DONE]' ? 'complete' : 'truncated';
}
