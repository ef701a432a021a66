import type { ChatCompletionFunctionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import type {
  CustomTool,
  FunctionTool,
  NamespaceTool,
  ResponseCreateParamsBase,
  Tool,
  ToolChoiceFunction,
} from 'openai/resources/responses/responses';
import type { Lazy } from '../json/read-json.js';
import { isEmptyText, joinText, type Text, textString } from '../json/text.js';
import type { DeclaredTool } from '../wire.js';
import { arrayAt, given, malformed, objectAt, untranslatable } from './cannot-translate.js';

/** Tools run by the provider: the other wire's model cannot run them, so they are left out. */
const HOSTED = /^(web_search|file_search|computer|image_generation$|image_gen$|code_interpreter$|mcp$)/;

const EMPTY_OBJECT = { type: 'object', properties: {} };

/** What a declared tool becomes for the target: a function tool, and how the agent declared it. */
export class ResponsesTools {
  readonly functions: Lazy<ChatCompletionFunctionTool>[] = [];
  readonly dropped: string[] = [];
  readonly declared = new Map<string, DeclaredTool>();

  /** Adds the tools of a `tools` list (the request's, or those an `additional_tools` item or a client tool search brought). */
  add(tools: unknown, path: string): void {
    if (!given(tools)) return;
    const list = arrayAt<Lazy<Tool>>(tools, path);
    for (let i = 0; i < list.length; i++) this.tool(objectAt<Lazy<Tool>>(list[i], `${path}[${i}]`), null);
  }

  private tool(tool: Lazy<Tool>, namespace: string | null): void {
    const type = String(tool.type);
    switch (tool.type) {
      case 'function':
        return this.function(tool, namespace);
      case 'custom':
        return this.custom(tool, namespace);
      case 'local_shell':
        this.declare('local_shell', { kind: 'local_shell' }, 'Runs a command on the user’s machine. `command` is the argument vector.', {
          type: 'object',
          properties: { command: { type: 'array', items: { type: 'string' } } },
          required: ['command'],
        });
        return;
      case 'tool_search':
        if (tool.execution !== 'client') {
          this.dropped.push(type);
          return;
        }
        this.declare(
          'tool_search',
          { kind: 'tool_search' },
          tool.description ?? undefined,
          (tool.parameters as object | null | undefined) ?? EMPTY_OBJECT,
        );
        return;
      case 'namespace':
        return this.namespace(tool);
      default:
        if (HOSTED.test(type)) this.dropped.push(type === 'mcp' && 'server_label' in tool ? textString(tool.server_label) : type);
        else untranslatable(`tool ${type}`);
    }
  }

  private function(tool: Lazy<FunctionTool> | Lazy<NamespaceTool.Function>, namespace: string | null): void {
    const name = textString(tool.name);
    this.declare(
      exposedName(name, namespace),
      { kind: 'function', name, namespace },
      tool.description ?? undefined,
      (tool.parameters as object | null) ?? undefined,
    );
  }

  /** A freeform tool takes one string: its grammar, when it has one, is told to the model in the description. */
  private custom(tool: Lazy<CustomTool>, namespace: string | null): void {
    const name = textString(tool.name);
    const parts: Text[] = [];
    if (given(tool.description) && !isEmptyText(tool.description)) parts.push(tool.description);
    if (given(tool.format) && tool.format.type === 'grammar') parts.push(tool.format.definition);
    this.declare(
      exposedName(name, namespace),
      { kind: 'custom', name, namespace },
      parts.length > 0 ? joinText(parts, '\n\n') : undefined,
      {
        type: 'object',
        properties: { input: { type: 'string' } },
        required: ['input'],
        additionalProperties: false,
      },
    );
  }

  private namespace(tool: Lazy<NamespaceTool>): void {
    const namespace = textString(tool.name);
    const inner = arrayAt<Lazy<NamespaceTool['tools'][number]>>(tool.tools, `namespace ${namespace}`);
    for (const member of inner) this.tool(member as Lazy<Tool>, namespace);
  }

  private declare(name: string, declared: DeclaredTool, description: Text | undefined, parameters: object | undefined): void {
    if (this.declared.has(name)) return;
    this.declared.set(name, declared);
    const fn: Lazy<ChatCompletionFunctionTool['function']> = { name };
    if (description !== undefined) fn.description = description;
    if (parameters !== undefined) fn.parameters = parameters as Lazy<Record<string, unknown>>;
    this.functions.push({ type: 'function', function: fn });
  }
}

/** A namespaced tool's name as the target sees it. */
export function exposedName(name: string, namespace: string | null | undefined): string {
  return namespace ? `${namespace}__${name}` : name;
}

type ResponsesToolChoice = Lazy<NonNullable<ResponseCreateParamsBase['tool_choice']>>;

/** `auto` / `none` / `required` as they are; a named function or custom tool by its name; forcing a hosted tool cannot be carried. */
export function chatToolChoiceOf(choice: unknown, tools: ResponsesTools): Lazy<ChatCompletionToolChoiceOption> | undefined {
  if (!given(choice)) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') {
    if (choice === 'required' && tools.functions.length === 0 && tools.dropped.length > 0)
      untranslatable(`forced hosted tool ${tools.dropped[0]}`);
    return choice;
  }
  if (typeof choice === 'string') return malformed('tool_choice', '"auto", "none", "required" or a tool');
  const c = objectAt<ResponsesToolChoice>(choice, 'tool_choice');
  if (typeof c === 'string') return c;
  switch (c.type) {
    case 'function':
    case 'custom':
      return { type: 'function', function: { name: (c as Lazy<ToolChoiceFunction>).name } };
    case 'allowed_tools':
      return untranslatable('tool_choice allowed_tools');
    default:
      return untranslatable(`forced hosted tool ${String(c.type)}`);
  }
}
