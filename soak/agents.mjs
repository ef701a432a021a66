/**
 * The simulated agents: each one loops — send a request, read the answer to
 * its end, think a little — until the run's deadline. A few send bad bodies,
 * a few hang up on purpose (only once the request has reached a seat, or
 * once the stream has started, so the daemon has certainly taken it).
 *
 * Every request ends in exactly one outcome, counted here:
 *   complete      — a status and the whole body
 *   stream_error  — a 200 stream the daemon ended with the family's error event
 *   cut           — a status, then the body broke off (the daemon cut a broken upstream body)
 *   hung_up       — the agent hung up on purpose
 *   no_answer     — the connection failed with no status (must never happen)
 *   stuck         — nothing within the watchdog (must never happen)
 */

const WATCHDOG_MS = 60_000;

export const OUTCOMES = ['complete', 'stream_error', 'cut', 'hung_up', 'no_answer', 'stuck'];

export function createTally() {
  return {
    sent: 0,
    settled: 0,
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, 0])),
    statuses: {},
    kinds: {},
    /** x-routeplane-request-id values seen on answers */
    requestIds: new Set(),
    duplicateRequestIds: 0,
    inFlight: 0,
    lanes: { foreground: 0, background: 0 },
    backgroundSkipped: 0,
  };
}

/** Tracks which soak ids reached a seat, for hang-ups timed after arrival. */
export function createArrivals() {
  const waiters = new Map();
  return {
    wait(id) {
      return new Promise((resolve) => waiters.set(id, resolve));
    },
    notify(id) {
      const wake = waiters.get(id);
      if (wake !== undefined) {
        waiters.delete(id);
        wake();
      }
    },
    forget(id) {
      waiters.delete(id);
    },
  };
}

const OPENAI_PATHS = ['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions', '/v1/responses'];

function planRequest(random) {
  const family = random.chance(0.65) ? 'openai' : 'anthropic';
  const kind = random.weighted([
    ['normal', 940],
    ['bad_json', 10],
    ['no_model', 5],
    ['unknown_model', 5],
    ['hang_up_after_arrival', 20],
    ['hang_up_mid_stream', 20],
  ]);
  const stream = kind === 'hang_up_mid_stream' ? true : random.chance(0.6);
  // a fifth of the work is background (a CI bot, a scheduled drain): skipped while its targets are tripped
  const lane = random.chance(0.2) ? 'background' : 'foreground';
  const route = family === 'openai' ? (random.chance(0.7) ? 'gpt' : 'gpt-short') : 'claude';
  const path = family === 'openai' ? OPENAI_PATHS[random.int(0, OPENAI_PATHS.length - 1)] : '/v1/messages';
  let body;
  if (kind === 'bad_json') body = '{"model": "gpt", "messages": [';
  else if (kind === 'no_model') body = JSON.stringify({ messages: [] });
  else if (kind === 'unknown_model') body = JSON.stringify({ model: 'no-such-route', messages: [] });
  else body = JSON.stringify({ model: route, stream, max_tokens: 32, messages: [{ role: 'user', content: 'soak' }] });
  return { family, kind, stream, path, body, lane };
}

function endsWithErrorEvent(text, family) {
  const events = text.split('\n\n').filter((e) => e !== '');
  const last = events[events.length - 1] ?? '';
  return family === 'anthropic' ? last.startsWith('event: error\n') : /^data: \{"error":/.test(last);
}

async function readAll(reader) {
  const decoder = new TextDecoder();
  let text = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
  return text;
}

async function oneRequest(baseUrl, random, tally, arrivals, id) {
  const plan = planRequest(random);
  tally.kinds[plan.kind] = (tally.kinds[plan.kind] ?? 0) + 1;
  tally.lanes[plan.lane]++;
  const controller = new AbortController();
  let hungUp = false;
  let stuck = false;
  let status = null;
  const watchdog = setTimeout(() => {
    stuck = true;
    controller.abort();
  }, WATCHDOG_MS);
  // registered before sending: the seat may see the request before fetch resolves
  if (plan.kind === 'hang_up_after_arrival') {
    void arrivals.wait(id).then(() => {
      hungUp = true;
      controller.abort();
    });
  }
  tally.sent++;
  tally.inFlight++;
  let outcome;
  try {
    const res = await fetch(baseUrl + plan.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-soak-id': id, 'x-routeplane-lane': plan.lane },
      body: plan.body,
      signal: controller.signal,
    });
    status = res.status;
    if (plan.lane === 'background' && status === 503 && res.headers.get('retry-after') !== null) tally.backgroundSkipped++;
    const requestId = res.headers.get('x-routeplane-request-id');
    if (requestId !== null) {
      if (tally.requestIds.has(requestId)) tally.duplicateRequestIds++;
      tally.requestIds.add(requestId);
    }
    const reader = res.body.getReader();
    if (plan.kind === 'hang_up_mid_stream' && status === 200) {
      const first = await reader.read();
      if (!first.done) {
        hungUp = true;
        controller.abort();
      }
    }
    const text = await readAll(reader);
    outcome = plan.stream && status === 200 && endsWithErrorEvent(text, plan.family) ? 'stream_error' : 'complete';
  } catch {
    if (stuck) outcome = 'stuck';
    else if (hungUp) outcome = 'hung_up';
    else if (status !== null) outcome = 'cut';
    else outcome = 'no_answer';
  } finally {
    clearTimeout(watchdog);
    arrivals.forget(id);
    tally.inFlight--;
  }
  if (status !== null) tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
  tally.settled++;
  tally.outcomes[outcome]++;
}

/** Runs `agents` loops until `untilMs`; resolves when every request has ended. */
export async function runAgents({ baseUrl, agents, untilMs, random, tally, arrivals }) {
  const loops = [];
  for (let a = 0; a < agents; a++) {
    loops.push(
      (async () => {
        // agents do not all start in the same millisecond
        await new Promise((resolve) => setTimeout(resolve, random.int(0, 1000)));
        for (let n = 0; Date.now() < untilMs; n++) {
          await oneRequest(baseUrl, random, tally, arrivals, `${a}-${n}`);
          await new Promise((resolve) => setTimeout(resolve, random.int(20, 300)));
        }
      })(),
    );
  }
  await Promise.all(loops);
}
