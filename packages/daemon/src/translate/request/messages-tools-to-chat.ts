import type { Tool, ToolChoice, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionFunctionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import type { Lazy } from '../json/read-json.js';
import { textString } from '../json/text.js';
import { arrayAt, given, malformed, objectAt, untranslatable } from './cannot-translate.js';

export interface ChatTools {
  tools: Lazy<ChatCompletionFunctionTool>[];
  /** server tools (web search, code execution, …): the chat wire has none; each by its name, else its type */
  dropped: string[];
  /** the dropped server tools' types by name, to say which one a `tool_choice` forced */
  droppedTypes: Map<string, string>;
}

/** Custom tools become function tools; a server tool (any `type` other than `custom`) is dropped. */
export function chatTools(tools: unknown): ChatTools {
  const out: ChatTools = { tools: [], dropped: [], droppedTypes: new Map() };
  if (!given(tools)) return out;
  const list = arrayAt<Lazy<ToolUnion>>(tools, 'tools');
  for (let i = 0; i < list.length; i++) {
    const tool = objectAt<Lazy<ToolUnion>>(list[i], `tools[${i}]`);
    if (isCustomTool(tool)) {
      const fn: Lazy<ChatCompletionFunctionTool['function']> = { name: tool.name };
      if (given(tool.description)) fn.description = tool.description;
      fn.parameters = tool.input_schema as Lazy<Record<string, unknown>>;
      out.tools.push({ type: 'function', function: fn });
      continue;
    }
    const type = String(tool.type);
    const name = 'name' in tool && tool.name !== undefined ? textString(tool.name) : type;
    out.dropped.push(name);
    out.droppedTypes.set(name, type);
  }
  return out;
}

function isCustomTool(tool: Lazy<ToolUnion>): tool is Lazy<Tool> {
  return (tool.type === undefined || tool.type === null || tool.type === 'custom') && 'input_schema' in tool;
}

export interface ChatToolChoice {
  tool_choice?: Lazy<ChatCompletionToolChoiceOption>;
  parallel_tool_calls?: boolean;
}

/**
 * `auto` / `any` / `tool` / `none` → `"auto"` / `"required"` / a named
 * function / `"none"`. Forcing a server tool cannot be carried: the request
 * exists to run that tool (Claude Code's WebSearch sub-request).
 */
export function chatToolChoice(choice: unknown, tools: ChatTools): ChatToolChoice {
  if (!given(choice)) return {};
  const c = objectAt<Lazy<ToolChoice>>(choice, 'tool_choice');
  const out: ChatToolChoice = {};
  switch (c.type) {
    case 'auto':
      out.tool_choice = 'auto';
      break;
    case 'any':
      if (tools.tools.length === 0 && tools.dropped.length > 0)
        untranslatable(`forced server tool ${tools.droppedTypes.get(tools.dropped[0]!)}`);
      out.tool_choice = 'required';
      break;
    case 'tool': {
      const forced = tools.droppedTypes.get(textString(c.name));
      if (forced !== undefined) untranslatable(`forced server tool ${forced}`);
      out.tool_choice = { type: 'function', function: { name: c.name } };
      break;
    }
    case 'none':
      out.tool_choice = 'none';
      break;
    default:
      return malformed('tool_choice.type', '"auto", "any", "tool" or "none"');
  }
  if (c.type !== 'none' && c.disable_parallel_tool_use === true) out.parallel_tool_calls = false;
  return out;
}
