/** Reading a fetch body piece by piece, to observe what reached the client and when. */
export type BodyReader = ReadableStreamDefaultReader<Uint8Array>;

const decoder = new TextDecoder();

/** Reads until the text received so far contains `needle`; returns that text. Throws if the body ends first. */
export async function readUntil(reader: BodyReader, needle: string): Promise<string> {
  let text = '';
  while (!text.includes(needle)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`body ended before ${JSON.stringify(needle)} arrived (got ${JSON.stringify(text)})`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/** Reads everything left until the body ends. */
export async function readRest(reader: BodyReader): Promise<string> {
  let text = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
  return text;
}

/** A response body as JSON, loosely typed for assertions (`Response.json()` is `unknown` without the DOM lib). */
// biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
export async function readJson(res: Response): Promise<any> {
  return res.json();
}
