/**
 * Real Claude Code and real Codex logged in — each with a made-up login in a
 * temporary home, never a real one — in front of `routeplane serve` with the
 * README's "Seats of every kind" config: the login seat gets the agent's own
 * credentials byte for byte, and when the plan's window is spent the work
 * goes on the API key seat, which never sees the login.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../daemon/test/helpers/fake-upstream.js';
import { respond } from '../../daemon/test/helpers/fake-upstream.js';
import { CLAUDE_CODE_VERSION, CODEX_VERSION } from './support/agents.js';
import { claudeCodeSeat, toolResults, windowUsedUp } from './support/anthropic-seat.js';
import { type ChatGptLogin, writeChatGptLogin, writeClaudeLogin } from './support/logins.js';
import { perTest } from './support/per-test.js';
import { readmeAgents } from './support/readme-agents.js';
import { bringUp, type Setup } from './support/readme-setup.js';
import { responsesSeat } from './support/responses-seat.js';
import { agentPlace, runClaudeCode, runCodex } from './support/run-agent.js';
import type { LoggedDecision } from './support/serve.js';

const readme = readmeAgents('## Seats of every kind');
const README_PORT_URL = 'http://127.0.0.1:4141';
const FINAL_TEXT = 'Read notes.txt twice: it names the pelican.';
const CODEX_TEXT = 'Routeplane answered with your own plan.';
const CODEX_BACKEND = '/backend-api/codex/responses';

const { cleanups, outside } = perTest();

function attemptsOf(d: LoggedDecision): Array<[string, number | null, string]> {
  return d.attempts.map((a) => [`${a.seat}/${a.model}`, a.status, a.evidence]);
}

/** Every header the upstream got, as one text: to search for a login that must not be there. */
const headerText = (requests: readonly RecordedRequest[]) => requests.map((r) => JSON.stringify(r.headers)).join('\n');

describe('Claude Code logged in to a Claude plan, through a passthrough seat', () => {
  it("is served on its own login, and finishes on the API key once the plan's window is spent — the key seat never sees the login", async () => {
    // the README's only setting for a logged-in Claude Code
    expect(Object.keys(readme.claudeCodeEnv)).toEqual(['ANTHROPIC_BASE_URL']);
    const place = agentPlace();
    cleanups.push(place.remove);
    const readFile = join(place.work, 'notes.txt');
    writeFileSync(readFile, 'The bird in this project is a pelican.\n');
    const login = writeClaudeLogin(place.home);
    // the plan's 5-hour window runs out on the session's second main request (after its first tool round)
    const plan = claudeCodeSeat({
      readFile,
      toolTurns: 2,
      finalText: FINAL_TEXT,
      runsOutOn: (req) => toolResults(req) >= 1,
      exhausted: windowUsedUp(Math.floor(Date.now() / 1000) + 3 * 3600),
    });
    const key = claudeCodeSeat({ readFile, toolTurns: 2, finalText: FINAL_TEXT });
    const setup: Setup = await bringUp(readme.config, (seat) => {
      if (seat.id === 'claude-login') return plan.behaviour;
      if (seat.id === 'claude-api') return key.behaviour;
      return respond.status(500);
    });
    cleanups.push(() => setup.close());

    const run = await runClaudeCode({
      env: { ...readme.claudeCodeEnv, ANTHROPIC_BASE_URL: setup.daemon.url },
      outside: outside.env,
      home: place.home,
      work: place.work,
      sessionId: '0b6c3f1e-5a7d-4e2b-9c8a-1f2e3d4c5b6a',
      prompt: 'Read notes.txt and tell me which bird it names.',
    });

    expect(run.code, run.stderr).toBe(0);
    expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: FINAL_TEXT });
    expect(plan.ranOut()).toBe(true);
    await expect.poll(() => setup.daemon.decisions().length).toBeGreaterThanOrEqual(4);
    const decisions = setup.daemon.decisions();
    process.stdout.write(
      `claude login: ${decisions.map((d) => `${d.requested} → ${d.route}: ${d.attempts.map((a) => `${a.seat} ${a.status}`).join(' → ')}`).join('; ')}\n`,
    );
    for (const d of decisions) expect(d).toMatchObject({ status: 200, client: `claude-cli/${CLAUDE_CODE_VERSION}` });

    // the login seat got Claude Code's own login, byte for byte, and its oauth beta; no key of ours
    const loginRequests = setup.upstreams.get('claude-login')!.requests;
    expect(loginRequests.length).toBeGreaterThanOrEqual(2);
    for (const r of loginRequests) {
      expect(r.headers.authorization).toBe(`Bearer ${login.accessToken}`);
      expect(r.headers['x-api-key']).toBeUndefined();
      expect(String(r.headers['anthropic-beta']).split(',')).toContain('oauth-2025-04-20');
    }
    // the first main request was served on the plan; the one that found it spent went on to the key
    const main = decisions.filter((d) => d.route === 'opus');
    expect(main[0]).toMatchObject({ served_by: 'claude-login/claude-opus-4-8' });
    const failover = main.find((d) => d.attempts.length === 2)!;
    expect(attemptsOf(failover)).toEqual([
      ['claude-login/claude-opus-4-8', 429, 'quota'],
      ['claude-api/claude-opus-4-8', 200, 'ok'],
    ]);
    // later requests went straight to the key: the login seat's quota holds until the plan's reset
    const after = decisions.slice(decisions.indexOf(failover) + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const d of after) {
      expect(d.attempts.map((a) => a.seat)).toEqual(['claude-api']);
      expect(d.chain.find((e) => e.seat === 'claude-login')).toMatchObject({ state: 'tripped', reason: 'quota' });
    }

    // the key seat got its own key and never the login (nor the login's oauth beta)
    const keyRequests = setup.upstreams.get('claude-api')!.requests;
    expect(keyRequests.length).toBeGreaterThanOrEqual(2);
    for (const r of keyRequests) {
      expect(r.headers['x-api-key']).toBe(setup.keys.get('claude-api'));
      expect(r.headers.authorization).toBeUndefined();
      expect(String(r.headers['anthropic-beta'] ?? '')).not.toContain('oauth-2025-04-20');
    }
    expect(headerText(keyRequests)).not.toContain(login.accessToken);
    // a logged-in Claude Code fetches its account's profile from Anthropic itself, past any base URL
    // (its debug log: "Failed to fetch oauth profile"); the trap refused it, and nothing else left loopback
    expect(outside.attempts.filter((a) => a !== 'CONNECT api.anthropic.com:443')).toEqual([]);
  });
});

describe('Codex logged in with ChatGPT, through a passthrough seat at the Codex backend', () => {
  const TOKEN = 'rp-codex-daemon-token-4Wq8Zx1c';

  /** `codex exec` with the README's config.toml and a ChatGPT login, the daemon's token in its environment. */
  async function codex(setup: Setup, login: (codexHome: string) => ChatGptLogin) {
    if (!readme.codexToml.includes(README_PORT_URL)) throw new Error(`the README's Codex config does not name ${README_PORT_URL}`);
    const place = agentPlace();
    cleanups.push(place.remove);
    const codexHome = join(place.dir, 'codex');
    mkdirSync(codexHome);
    const made = login(codexHome);
    writeFileSync(
      join(codexHome, 'config.toml'),
      'check_for_update_on_startup = false\n' +
        readme.codexToml.replaceAll(README_PORT_URL, setup.daemon.url) +
        '\n[analytics]\nenabled = false\n\n[features]\nplugins = false\napps = false\n',
    );
    const run = await runCodex({
      codexHome,
      outside: outside.env,
      home: place.home,
      work: place.work,
      prompt: 'Say whose plan answered.',
      env: { ROUTEPLANE_TOKEN: TOKEN },
    });
    return { run, login: made };
  }

  const answerOf = (run: Awaited<ReturnType<typeof runCodex>>) =>
    run.events.find((e) => e.type === 'item.completed' && e.item?.type === 'agent_message')?.item?.text;

  it('sends its JWT and chatgpt-account-id to the plan as they are, and finishes on the API key when the plan is at its limit', async () => {
    expect(readme.codexToml).toContain('requires_openai_auth = true');
    let limitReached = false;
    const setup = await bringUp(
      { ...readme.config, server: { auth_token_env: 'ROUTEPLANE_TOKEN' } },
      (seat) => {
        if (seat.id === 'chatgpt-login') {
          const served = responsesSeat(CODEX_TEXT, CODEX_BACKEND);
          const limit = respond.json(429, {
            error: {
              type: 'usage_limit_reached',
              message: 'The usage limit has been reached',
              plan_type: 'plus',
              resets_at: Math.floor(Date.now() / 1000) + 3 * 3600,
              resets_in_seconds: 3 * 3600,
            },
          });
          return (req, res) => (limitReached ? limit(req, res) : served(req, res));
        }
        if (seat.id === 'openai-api') return responsesSeat(CODEX_TEXT);
        return respond.status(500);
      },
      { ROUTEPLANE_TOKEN: TOKEN },
    );
    cleanups.push(() => setup.close());
    const login = writeChatGptLoginOnce();

    const first = await codex(setup, login.write);
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(answerOf(first.run)).toBe(CODEX_TEXT);
    const plan = setup.upstreams.get('chatgpt-login')!;
    expect(plan.requests.length).toBeGreaterThanOrEqual(1);
    for (const r of plan.requests) {
      // api_path "": /v1/responses went to …/backend-api/codex/responses
      expect(r.url).toBe(CODEX_BACKEND);
      expect(r.headers.authorization).toBe(`Bearer ${first.login.accessToken}`);
      expect(r.headers['chatgpt-account-id']).toBe(first.login.accountId);
      expect(r.headers['x-routeplane-token']).toBeUndefined();
    }
    const [served] = await decisionsAfter(setup, 1);
    expect(served).toMatchObject({
      route: 'codex',
      served_by: 'chatgpt-login/gpt-5-codex',
      status: 200,
      client: `codex_exec/${CODEX_VERSION}`,
    });

    limitReached = true;
    const second = await codex(setup, login.write);
    expect(second.run.code, second.run.stderr).toBe(0);
    expect(answerOf(second.run)).toBe(CODEX_TEXT);
    const [, failover] = await decisionsAfter(setup, 2);
    expect(attemptsOf(failover!)).toEqual([
      ['chatgpt-login/gpt-5-codex', 429, 'quota'],
      ['openai-api/gpt-5-codex', 200, 'ok'],
    ]);
    const key = setup.upstreams.get('openai-api')!.requests;
    expect(key.length).toBeGreaterThanOrEqual(1);
    for (const r of key) {
      expect(r.url).toBe('/v1/responses');
      expect(r.headers.authorization).toBe(`Bearer ${setup.keys.get('openai-api')}`);
      expect(r.headers['chatgpt-account-id']).toBeUndefined();
    }
    expect(headerText(key)).not.toContain(first.login.accessToken);
    expect(headerText(key)).not.toContain(first.login.accountId);
    // a Codex logged in with ChatGPT also calls chatgpt.com itself (its account and plan, past the
    // provider's base_url); the trap refused those, and nothing else left loopback
    expect(outside.attempts.filter((a) => a !== 'CONNECT chatgpt.com:443')).toEqual([]);
  });
});

/** One ChatGPT login for every run of a test: the same account, logged in once. */
function writeChatGptLoginOnce(): { write: (codexHome: string) => ChatGptLogin } {
  let made: ChatGptLogin | null = null;
  let file: string | null = null;
  return {
    write(codexHome) {
      if (made === null) {
        made = writeChatGptLogin(codexHome);
        file = join(codexHome, 'auth.json');
        return made;
      }
      // the same auth.json in another CODEX_HOME
      copyFileSync(file!, join(codexHome, 'auth.json'));
      return made;
    },
  };
}

async function decisionsAfter(setup: Setup, count: number): Promise<LoggedDecision[]> {
  await expect.poll(() => setup.daemon.decisions().length).toBeGreaterThanOrEqual(count);
  return setup.daemon.decisions();
}
