import type { Random } from '../random.js';

// Words a coding agent's answer is made of; the demo only needs plausible tokens.
const WORDS = (
  'let me look at the failing test first . the handler reads the config once at start , so ' +
  'the cache never sees the new value . I will move the lookup into the request path and add ' +
  'a regression test that changes the file while the server runs . done : the patch keeps the ' +
  'public api unchanged , updates two call sites and the suite passes locally'
).split(' ');

/** `count` tokens of plausible text, each token one word with its leading space. */
export function replyTokens(random: Random, count: number): string[] {
  const start = random.int([0, WORDS.length - 1]);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = WORDS[(start + i) % WORDS.length] ?? '.';
    tokens.push(i === 0 ? capitalise(word) : ` ${word}`);
  }
  return tokens;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A rough token count for a prompt (4 characters a token), for usage fields. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
