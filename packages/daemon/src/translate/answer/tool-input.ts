/**
 * A tool call's arguments as the object the Messages API's `tool_use.input`
 * must be: null when they are not a JSON object. No arguments at all (some
 * servers send none for a tool without parameters) are an empty object.
 */
export function toolInput(args: string): Record<string, unknown> | null {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function notAnObject(name: string): string {
  return `the upstream called tool ${name} with arguments that are not a JSON object`;
}
