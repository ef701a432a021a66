/**
 * Made-up logins for the agents, written where each agent keeps its own — a
 * test credentials file in a temporary HOME, never a real login. Claude Code
 * reads `~/.claude/.credentials.json` (`claudeAiOauth`); Codex reads
 * `$CODEX_HOME/auth.json` in ChatGPT mode, whose tokens are JWTs it decodes
 * (never verifies) for the plan and the account id.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ClaudeLogin {
  /** what Claude Code sends as `Authorization: Bearer …` */
  readonly accessToken: string;
}

/** A Claude Max login in `home`, valid for the next eight hours (so Claude Code does not try to refresh it). */
export function writeClaudeLogin(home: string): ClaudeLogin {
  const accessToken = `sk-ant-oat01-${randomBytes(30).toString('base64url')}`;
  const credentials = {
    claudeAiOauth: {
      accessToken,
      refreshToken: `sk-ant-ort01-${randomBytes(30).toString('base64url')}`,
      expiresAt: Date.now() + 8 * 3_600_000,
      scopes: ['user:inference', 'user:profile', 'user:sessions:claude_code'],
      subscriptionType: 'max',
    },
  };
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', '.credentials.json'), JSON.stringify(credentials), { mode: 0o600 });
  return { accessToken };
}

export interface ChatGptLogin {
  /** what Codex sends as `Authorization: Bearer …` */
  readonly accessToken: string;
  /** what it sends as `chatgpt-account-id` */
  readonly accountId: string;
}

/** A ChatGPT Plus login in `codexHome/auth.json`: syntactically valid JWTs, signed by nobody. */
export function writeChatGptLogin(codexHome: string): ChatGptLogin {
  const accountId = randomUUID();
  const auth = { chatgpt_plan_type: 'plus', chatgpt_user_id: `user-${randomBytes(8).toString('hex')}`, chatgpt_account_id: accountId };
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + 24 * 3600;
  const idToken = jwt({ email: 'agent@example.com', 'https://api.openai.com/auth': auth, iat, exp });
  const accessToken = jwt({ 'https://api.openai.com/auth': auth, iat, exp, scp: ['openid', 'profile', 'email'] });
  const file = {
    auth_mode: 'chatgpt',
    OPENAI_API_KEY: null,
    tokens: {
      id_token: idToken,
      access_token: accessToken,
      refresh_token: `rt_${randomBytes(24).toString('base64url')}`,
      account_id: accountId,
    },
    last_refresh: new Date().toISOString(),
  };
  writeFileSync(join(codexHome, 'auth.json'), JSON.stringify(file), { mode: 0o600 });
  return { accessToken, accountId };
}

function jwt(claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.${randomBytes(64).toString('base64url')}`;
}
