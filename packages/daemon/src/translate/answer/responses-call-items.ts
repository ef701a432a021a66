import type {
  ResponseCustomToolCall,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseToolSearchCall,
} from 'openai/resources/responses/responses';
import type { DeclaredTool } from '../wire.js';
import { type BadAnswer, badAnswer, type ToolCall } from './answer.js';
import { toolInput } from './tool-input.js';

export type FunctionCallItem = Pick<ResponseFunctionToolCall, 'type' | 'id' | 'call_id' | 'name' | 'arguments' | 'status' | 'namespace'>;
export type CustomCallItem = Pick<ResponseCustomToolCall, 'type' | 'id' | 'call_id' | 'name' | 'input' | 'namespace'>;
export type LocalShellItem = ResponseOutputItem.LocalShellCall;
export type ToolSearchItem = Pick<ResponseToolSearchCall, 'type' | 'id' | 'call_id' | 'arguments' | 'execution' | 'status'>;
export type CallItem = FunctionCallItem | CustomCallItem | LocalShellItem | ToolSearchItem;

/** The item id prefix of each kind of call, as the Responses API names them. */
export function callItemId(declared: DeclaredTool | undefined, base: string): string {
  switch (declared?.kind) {
    case 'custom':
      return `ctc_${base}`;
    case 'local_shell':
      return `lsh_${base}`;
    case 'tool_search':
      return `tsc_${base}`;
    default:
      return `fc_${base}`;
  }
}

/**
 * A tool call as the item the agent declared it as: a function call, or —
 * for a tool the agent declared as freeform, as `local_shell` or as a client
 * tool search — that item, its input taken out of the function arguments the
 * target wrote. Arguments that do not fit are a bad answer.
 */
export function callItem(
  declared: DeclaredTool | undefined,
  id: string,
  call: ToolCall,
  status: 'in_progress' | 'completed',
): CallItem | BadAnswer {
  switch (declared?.kind) {
    case undefined:
      return { type: 'function_call', id, call_id: call.id, name: call.name, arguments: call.arguments, status };
    case 'function': {
      const item: FunctionCallItem = {
        type: 'function_call',
        id,
        call_id: call.id,
        name: declared.name,
        arguments: call.arguments,
        status,
      };
      if (declared.namespace !== null) item.namespace = declared.namespace;
      return item;
    }
    case 'custom': {
      const input = toolInput(call.arguments)?.input;
      if (typeof input !== 'string') return badAnswer(`the upstream called freeform tool ${declared.name} without a string "input"`);
      const item: CustomCallItem = { type: 'custom_tool_call', id, call_id: call.id, name: declared.name, input };
      if (declared.namespace !== null) item.namespace = declared.namespace;
      return item;
    }
    case 'local_shell': {
      const args = toolInput(call.arguments);
      const command = args?.command;
      if (!Array.isArray(command) || !command.every((part) => typeof part === 'string')) {
        return badAnswer('the upstream called local_shell without a "command" list of strings');
      }
      const action: LocalShellItem['action'] = { type: 'exec', command, env: isStringRecord(args?.env) ? args.env : {} };
      if (typeof args?.timeout_ms === 'number') action.timeout_ms = args.timeout_ms;
      if (typeof args?.working_directory === 'string') action.working_directory = args.working_directory;
      if (typeof args?.user === 'string') action.user = args.user;
      return { type: 'local_shell_call', id, call_id: call.id, action, status };
    }
    case 'tool_search': {
      const args = toolInput(call.arguments);
      if (args === null) return badAnswer('the upstream called tool_search with arguments that are not a JSON object');
      return { type: 'tool_search_call', id, call_id: call.id, arguments: args, execution: 'client', status };
    }
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}
