/**
 * What the decision records as `client`: the product
 * token of the agent's `user-agent` (`claude-cli/2.1.197`, `codex_exec/0.169.0`,
 * `OpenAI/JS 6.49.0`), at most 60 characters, or null. The SDKs write their
 * product as two words (`OpenAI/JS 6.49.0`), so a version that follows a
 * `name/word` token is kept with it.
 */
const MAX_CLIENT_CHARS = 60;
const PRODUCT = /^([A-Za-z0-9._-]+\/[A-Za-z0-9._+-]+)(?:\s+(v?\d[A-Za-z0-9._+-]*))?/;

export function clientToken(userAgent: string | string[] | undefined): string | null {
  const text = Array.isArray(userAgent) ? userAgent[0] : userAgent;
  if (text === undefined) return null;
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const match = PRODUCT.exec(trimmed);
  const token = match === null ? (trimmed.split(/\s/)[0] ?? '') : match[2] === undefined ? match[1]! : `${match[1]} ${match[2]}`;
  // printable ASCII only: it is shown in logs and on screens
  const clean = token.replace(/[^\x21-\x7e ]/g, '');
  return clean === '' ? null : clean.slice(0, MAX_CLIENT_CHARS);
}
