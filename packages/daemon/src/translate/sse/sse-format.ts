/** A named event, as the Messages and Responses APIs stream them. */
export function namedEvent(name: string, data: object): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An unnamed event, as Chat Completions streams them. */
export function dataEvent(data: object): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

export const CHAT_DONE = 'data: [DONE]\n\n';
