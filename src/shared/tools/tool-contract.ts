/**
 * Tool classes drive both policy and retry behaviour:
 * read tools may retry; write, exec, mcp and config tools run at most once.
 */
export type ToolClass = 'read' | 'write' | 'exec' | 'mcp' | 'config';

/** JSON Schema object describing a tool's arguments, as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/** A tool's `inputSchema`: an object with these properties and no others. */
export function objectSchema(
  properties: Record<string, JsonSchema>,
  required?: string[],
): JsonSchema {
  // The keys in this order, as the schemas were written out by hand: these objects are sent to
  // models and recorded in workflow history, so their JSON must not change.
  return {
    type: 'object',
    properties,
    ...(required === undefined ? {} : { required }),
    additionalProperties: false,
  };
}

/** A string property of an `inputSchema`, with what the model should put in it. */
export function stringProperty(description: string): JsonSchema {
  return { type: 'string', description };
}

/** One tool as the model sees it, plus what the runtime needs to police and run it. */
export interface ToolSchema {
  /** Canonical registered name (`read`, `WebFetch`, `use_skill`, `mcp__server__tool`). */
  name: string;
  /** Provider group it came from (`FileSystem`, `Bash`, `Knowledge`, `Memory`, `Skills`, `Mcp`). */
  provider: string;
  description: string;
  inputSchema: JsonSchema;
  toolClass: ToolClass;
  /** Names of arguments that hold file paths; policy resolves them against the roots. */
  pathArguments?: string[];
  /**
   * The tool can write only inside a directory fixed when it was built (memory_write), so
   * policy lets it run without a card. Only the runtime's own tools set this.
   */
  confined?: boolean;
  /** A tool of an MCP server exposed directly (`mcp:server:tool`): which server, which tool. */
  mcp?: { server: string; tool: string };
}

/** A named group of tools. A provider with `requiredRole` is invisible to callers without it. */
export interface ToolProviderInfo {
  name: string;
  requiredRole?: string;
  tools: ToolSchema[];
}

export function isAtMostOnce(toolClass: ToolClass): boolean {
  return toolClass !== 'read';
}

/** The exact prefix the model sees when a tool fails. */
export function toolFailureText(toolName: string, cause: string): string {
  return `[tool '${toolName}' failed] ${cause}`;
}
