// Requests as the coding agents really send them, for the agent cells:
// Claude Code's `POST /v1/messages?beta=true` (a 110 KB conversation: model
// first, `metadata.user_id`, messages with tool calls and file contents,
// the system prompt, the tool schemas, `stream: true` last) and Codex's
// `POST /v1/responses` (38 KB: instructions, input items with a function
// call and its output, tools, `prompt_cache_key`). Member order and header
// names follow what those agents send; the text is code and prose with the
// quotes, backslashes and newlines real contexts are full of. Deterministic,
// exact in size.

/** Code as it sits in a file an agent read: quotes, escapes, tabs, regexes, templates. */
const CODE = [
  "import { readFileSync } from 'node:fs';",
  'import { join } from "node:path";',
  '',
  'export function parseArgs(argv: string[]): Record<string, string> {',
  '\tconst out: Record<string, string> = {};',
  '\tfor (const arg of argv) {',
  '\t\tconst m = /^--([a-z-]+)=(.*)$/.exec(arg);',
  '\t\tif (m) out[m[1]] = m[2].replace(/\\\\n/g, "\\n");',
  '\t}',
  '\treturn out;',
  '}',
  '',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal in a file, not one of ours
  'const template = `path: ${join("src", "index.ts")} — "quoted" and \\"escaped\\"`;',
  "console.log(JSON.stringify({ ok: true, template, note: 'it\\'s fine' }));",
  '',
].join('\n');

const PROSE =
  'When you run a command, explain what it does and why. Prefer the dedicated tools over shell ' +
  "commands (use Read, not `cat`). Keep answers short: the user reads them in a terminal. Don't " +
  'add comments that restate the code. Use "double quotes" in examples only where the language ' +
  "needs them.\n\n- Follow the repository's conventions.\n- Never commit unless asked.\n";

/** `n` hex digits from a seed, deterministic (not random: the same body every run). */
function hex(seed, n) {
  let x = Math.imul(seed, 2654435761) >>> 0 || 1;
  let s = '';
  while (s.length < n) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    s += (x >>> 0).toString(16).padStart(8, '0');
  }
  return s.slice(0, n);
}

const uuid = (seed) => {
  const h = hex(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** A JSON schema of the size Claude Code's and Codex's tools carry. */
function toolSchema(i) {
  return {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: `The absolute path to the file to operate on (tool ${i}).` },
      command: { type: 'string', description: 'The command to run. Quote paths with spaces: "like this".' },
      timeout: { type: 'number', description: 'Optional timeout in milliseconds (max 600000).' },
      edits: {
        type: 'array',
        items: {
          type: 'object',
          properties: { old_string: { type: 'string' }, new_string: { type: 'string' }, replace_all: { type: 'boolean', default: false } },
          required: ['old_string', 'new_string'],
          additionalProperties: false,
        },
      },
    },
    required: ['file_path'],
    additionalProperties: false,
    $schema: 'http://json-schema.org/draft-07/schema#',
  };
}

const TOOL_NAMES = [
  'Task',
  'Bash',
  'Glob',
  'Grep',
  'ExitPlanMode',
  'Read',
  'Edit',
  'MultiEdit',
  'Write',
  'NotebookEdit',
  'WebFetch',
  'TodoWrite',
  'WebSearch',
  'BashOutput',
  'KillShell',
  'SlashCommand',
];

/** Pads the body to exactly `bytes` by growing the string value that holds `PAD` (escaped text grows by whole lines, then by `x`). */
function exact(build, bytes) {
  const probe = Buffer.byteLength(JSON.stringify(build('')));
  let room = bytes - probe;
  if (room < 0) throw new Error(`agent body: the skeleton alone is ${probe} bytes, more than ${bytes}`);
  // what one more copy of CODE costs in the body (escaped once, or twice inside a JSON string value)
  const escapedLine = Buffer.byteLength(JSON.stringify(build(CODE))) - probe;
  const whole = Math.floor(room / escapedLine);
  room -= whole * escapedLine;
  const body = Buffer.from(JSON.stringify(build(CODE.repeat(whole) + 'x'.repeat(room))));
  if (body.length !== bytes) throw new Error(`agent body: built ${body.length} bytes, wanted ${bytes}`);
  return body;
}

/** Claude Code 2.1's request: a session some turns in, the last tool result carrying the padding. */
export function claudeCodeBody(bytes, stream = true) {
  const session = uuid(7);
  const build = (pad) => {
    const messages = [];
    messages.push({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `<system-reminder>\nAs you answer the user's questions, you can use the following context:\n${PROSE.repeat(3)}</system-reminder>`,
        },
        { type: 'text', text: 'Fix the failing test in src/args.ts and explain the change.' },
      ],
    });
    for (let turn = 0; turn < 6; turn++) {
      const id = `toolu_01${hex(100 + turn, 22)}`;
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: `I'll read the file first (step ${turn + 1}).` },
          { type: 'tool_use', id, name: 'Read', input: { file_path: `/home/dev/project/src/file${turn}.ts` } },
        ],
      });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: turn === 5 ? pad : CODE.repeat(8) }],
      });
    }
    messages.at(-1).content[0].cache_control = { type: 'ephemeral' };
    return {
      model: 'claude-sonnet-4-5-20250929',
      metadata: { user_id: `user_${hex(3, 64)}_account_${uuid(5)}_session_${session}` },
      messages,
      system: [
        { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
        { type: 'text', text: PROSE.repeat(40), cache_control: { type: 'ephemeral' } },
      ],
      tools: TOOL_NAMES.map((name, i) => ({ name, description: PROSE.repeat(3), input_schema: toolSchema(i) })),
      max_tokens: 32000,
      stream,
    };
  };
  return { body: exact(build, bytes), session };
}

/** Codex 0.171's Responses request: instructions, input items with a shell call and its output, tools, the cache key. */
export function codexBody(bytes, stream = true) {
  const session = uuid(11);
  const build = (pad) => {
    const input = [
      {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '<environment_context>\n  <cwd>/home/dev/project</cwd>\n  <approval_policy>never</approval_policy>\n</environment_context>',
          },
        ],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make the args parser accept --flag without a value.' }] },
    ];
    for (let turn = 0; turn < 3; turn++) {
      const callId = `call_${hex(200 + turn, 24)}`;
      input.push({
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', `sed -n 1,120p src/file${turn}.ts`], workdir: '/home/dev/project' }),
        call_id: callId,
      });
      input.push({
        type: 'function_call_output',
        call_id: callId,
        output: JSON.stringify({ output: turn === 2 ? pad : CODE.repeat(4), metadata: { exit_code: 0, duration_seconds: 0.1 } }),
      });
    }
    return {
      model: 'gpt',
      instructions: PROSE.repeat(20),
      input,
      tools: ['shell', 'apply_patch', 'update_plan', 'view_image'].map((name, i) => ({
        type: 'function',
        name,
        description: PROSE.repeat(2),
        strict: false,
        parameters: toolSchema(i),
      })),
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
      stream,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: session,
    };
  };
  return { body: exact(build, bytes), session };
}

/** The agents' own paths and headers (the daemon drops their credentials; the mock answers by `x-mock-answer`). */
export function claudeCodeRequest(session) {
  return {
    path: '/v1/messages?beta=true',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer unused',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14',
      'anthropic-dangerous-direct-browser-access': 'true',
      'user-agent': 'claude-cli/2.1.197 (external, cli)',
      'x-app': 'cli',
      'x-claude-code-session-id': session,
      'x-stainless-arch': 'x64',
      'x-stainless-lang': 'js',
      'x-stainless-os': 'Linux',
      'x-stainless-package-version': '0.60.0',
      'x-stainless-retry-count': '0',
      'x-stainless-runtime': 'node',
      'x-stainless-runtime-version': 'v20.19.0',
      'x-stainless-timeout': '600',
      'x-mock-answer': 'claude-code',
    },
  };
}

export function codexRequest(session) {
  return {
    path: '/v1/responses',
    headers: {
      accept: 'text/event-stream',
      'content-type': 'application/json',
      authorization: 'Bearer unused',
      originator: 'codex_exec',
      session_id: session,
      'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm-256color',
      'x-mock-answer': 'codex',
    },
  };
}
