/**
 * The official SDKs' own stream accumulators, fed the translated bytes as
 * an HTTP response body through the clients' `fetch` option: the SDKs parse
 * the server-sent events themselves and build the final message, chat
 * completion or response as they would from a real server, rejecting event
 * orders they cannot follow and error events.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response as OpenAIResponse } from 'openai/resources/responses/responses';

/** A response whose body arrives in exactly these chunks. */
function bodyOf(chunks: readonly Buffer[], contentType: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) if (chunk.length > 0) controller.enqueue(new Uint8Array(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': contentType } });
}

function answering(chunks: readonly Buffer[], contentType: string): typeof fetch {
  return async () => bodyOf(chunks, contentType);
}

const BASE = 'http://translated.invalid';

export async function anthropicStream(chunks: readonly Buffer[]): Promise<Message> {
  const client = new Anthropic({ apiKey: 'test', baseURL: BASE, maxRetries: 0, fetch: answering(chunks, 'text/event-stream') });
  return client.messages.stream({ model: 'claude', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
}

export async function anthropicJson(body: Buffer): Promise<Message> {
  const client = new Anthropic({ apiKey: 'test', baseURL: BASE, maxRetries: 0, fetch: answering([body], 'application/json') });
  return client.messages.create({ model: 'claude', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] });
}

export async function chatStream(chunks: readonly Buffer[], includeUsage = true): Promise<ChatCompletion> {
  const client = new OpenAI({ apiKey: 'test', baseURL: BASE, maxRetries: 0, fetch: answering(chunks, 'text/event-stream') });
  const stream = client.chat.completions.stream({
    model: 'gpt',
    messages: [{ role: 'user', content: 'hi' }],
    ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
  });
  return stream.finalChatCompletion();
}

export async function chatJson(body: Buffer): Promise<ChatCompletion> {
  const client = new OpenAI({ apiKey: 'test', baseURL: BASE, maxRetries: 0, fetch: answering([body], 'application/json') });
  return client.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });
}

export async function responsesStream(chunks: readonly Buffer[]): Promise<OpenAIResponse> {
  const client = new OpenAI({ apiKey: 'test', baseURL: BASE, maxRetries: 0, fetch: answering(chunks, 'text/event-stream') });
  return client.responses.stream({ model: 'gpt', input: 'hi' }).finalResponse();
}

export async function responsesJson(body: Buffer): Promise<OpenAIResponse> {
  const client = new OpenAI({ apiKey: 'test', baseURL: BASE, maxRetries: 0, fetch: answering([body], 'application/json') });
  return client.responses.create({ model: 'gpt', input: 'hi' });
}

/** What a rejected accumulation threw, to assert on. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the SDK to reject the stream, and it accepted it');
}
