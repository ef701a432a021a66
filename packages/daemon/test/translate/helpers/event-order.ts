/**
 * Stricter than the SDKs' accumulators (which skip a delta for a block they
 * do not have): the translated stream's events, checked for the order each
 * wire promises. Each returns the events, parsed, for further assertions.
 */

export interface WireEvent {
  name: string | null;
  data: Record<string, unknown> | '[DONE]';
}

/** Events of a translated stream (well-formed by construction: `event:` / `data:` lines, a blank line after each). */
export function eventsOf(bytes: Buffer | string): WireEvent[] {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  if (text === '') return [];
  if (!text.endsWith('\n\n')) throw new Error(`stream does not end with a blank line: ${JSON.stringify(text.slice(-80))}`);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      let name: string | null = null;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data = line.slice(6);
        else throw new Error(`unexpected line in a translated stream: ${JSON.stringify(line)}`);
      }
      return { name, data: data === '[DONE]' ? '[DONE]' : JSON.parse(data) };
    });
}

function fail(what: string, at: number, event: WireEvent): never {
  throw new Error(`event ${at} (${event.name ?? 'data'}): ${what}: ${JSON.stringify(event.data).slice(0, 200)}`);
}

/** message_start; blocks indexed from 0, one open at a time, deltas of its own kind; message_delta once; message_stop last. Or an error event last. */
export function checkMessagesOrder(bytes: Buffer | string): WireEvent[] {
  const events = eventsOf(bytes);
  let next = 0;
  let open: { index: number; type: string } | null = null;
  let delta = false;
  let stopped = false;
  events.forEach((event, at) => {
    const data = event.data as Record<string, unknown>;
    if (stopped) fail('an event after message_stop or error', at, event);
    if (event.name !== data.type) fail(`event name ${event.name} differs from its type`, at, event);
    if (at === 0 && event.name !== 'message_start' && event.name !== 'error') fail('the first event is not message_start', at, event);
    switch (event.name) {
      case 'message_start':
        if (at !== 0) fail('message_start twice', at, event);
        break;
      case 'content_block_start': {
        if (open !== null) fail(`block ${open.index} still open`, at, event);
        if (delta) fail('a block after message_delta', at, event);
        if (data.index !== next) fail(`block index ${String(data.index)}, expected ${next}`, at, event);
        open = { index: next++, type: String((data.content_block as { type: string }).type) };
        break;
      }
      case 'content_block_delta': {
        if (open === null || data.index !== open.index) fail('a delta for a block that is not open', at, event);
        const kind = (data.delta as { type: string }).type;
        const expected = open.type === 'text' ? 'text_delta' : 'input_json_delta';
        if (kind !== expected) fail(`${kind} in a ${open.type} block`, at, event);
        break;
      }
      case 'content_block_stop':
        if (open === null || data.index !== open.index) fail('a stop for a block that is not open', at, event);
        open = null;
        break;
      case 'message_delta':
        if (open !== null) fail('message_delta with a block open', at, event);
        if (delta) fail('message_delta twice', at, event);
        delta = true;
        break;
      case 'message_stop':
        if (!delta) fail('message_stop before message_delta', at, event);
        stopped = true;
        break;
      case 'error':
        stopped = true;
        break;
      default:
        fail('an unknown event', at, event);
    }
  });
  return events;
}

/** One id, `created` and model on every chunk; the role first; tool calls indexed from 0, each delta for the newest; one finish; usage after it; [DONE] last. */
export function checkChatOrder(bytes: Buffer | string): WireEvent[] {
  const events = eventsOf(bytes);
  let first: Record<string, unknown> | null = null;
  let tools = -1;
  let finished = false;
  let done = false;
  events.forEach((event, at) => {
    if (done) fail('an event after [DONE]', at, event);
    if (event.data === '[DONE]') {
      if (!finished) fail('[DONE] before a finish_reason', at, event);
      done = true;
      return;
    }
    const data = event.data;
    if (data.error !== undefined) {
      if (at !== events.length - 1) fail('an error that is not the last event', at, event);
      return;
    }
    if (first === null) {
      first = data;
      const delta = (data.choices as Array<{ delta: { role?: string } }>)[0]?.delta;
      if (delta?.role !== 'assistant') fail('the first chunk has no assistant role', at, event);
    }
    for (const key of ['id', 'created', 'model', 'object'] as const)
      if (data[key] !== first[key]) fail(`${key} differs from the first chunk's`, at, event);
    const choices = data.choices as Array<{ delta: { tool_calls?: Array<{ index: number; id?: string }> }; finish_reason: string | null }>;
    if (choices.length === 0) {
      if (!finished || data.usage === undefined) fail('a chunk without choices that is not the usage chunk after the finish', at, event);
      return;
    }
    if (finished) fail('a choice after the finish_reason', at, event);
    for (const call of choices[0]!.delta.tool_calls ?? []) {
      if (call.id !== undefined) {
        if (call.index !== tools + 1) fail(`a new tool call with index ${call.index}, expected ${tools + 1}`, at, event);
        tools = call.index;
      } else if (call.index !== tools) fail(`arguments for tool call ${call.index} while ${tools} is the newest`, at, event);
    }
    if (choices[0]!.finish_reason !== null) finished = true;
  });
  return events;
}

/** `sequence_number` from 0, one apart; `response.created` first; a terminal event last. */
export function checkResponsesOrder(bytes: Buffer | string): WireEvent[] {
  const events = eventsOf(bytes);
  const terminal = new Set(['response.completed', 'response.incomplete', 'response.failed']);
  events.forEach((event, at) => {
    const data = event.data as Record<string, unknown>;
    if (event.name !== data.type) fail(`event name ${event.name} differs from its type`, at, event);
    if (data.sequence_number !== at) fail(`sequence_number ${String(data.sequence_number)}, expected ${at}`, at, event);
    if (at === 0 && event.name !== 'response.created') fail('the first event is not response.created', at, event);
    if (terminal.has(String(event.name)) && at !== events.length - 1) fail('a terminal event that is not the last', at, event);
  });
  const last = events.at(-1);
  if (last !== undefined && !terminal.has(String(last.name)))
    fail('the stream does not end with a terminal event', events.length - 1, last);
  return events;
}
