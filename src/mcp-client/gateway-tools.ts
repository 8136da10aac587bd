/**
 * The scoped MCP gateway: `mcp_search`, `mcp_describe`, `mcp_call` and directly exposed
 * `mcp__server__tool` tools, over the process's pooled clients. Scope is the snapshot's declared
 * servers and nothing else: a server the agent did not declare is named in no listing and
 * refused with the list of those it may use. Whether a call needs a card is decided before it
 * gets here, in the workflow (src/policy/mcp-scope.ts); a call only ever runs in an activity.
 *
 * Every failure is a `ToolError` the model reads (`[tool 'server/tool' failed] CAUSE`): an
 * unknown tool, a server that is not connected, a timeout, a server that died mid-call.
 */
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CapabilitySnapshot, McpServerRef } from '../shared/capability-snapshot.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import { ToolError, type ToolContext, type ToolImplementation } from '../tools/tool.js';
import { resultText } from './call-result.js';
import { McpNotConnectedError, NO_TIMEOUT_MS, type PooledServer } from './pool.js';

export interface McpGatewayDeps {
  /** The pooled client of the server `agent` declared as `name`, or why there is none. */
  server(agent: string, name: string): PooledServer | { missing: string };
}

/** Listings are cut here, with a note: a server with 500 tools must not flood a turn. */
const MAX_LISTED = 50;

export function createMcpTools(
  snapshot: CapabilitySnapshot,
  deps: McpGatewayDeps,
): ToolImplementation[] {
  const declared = new Map(snapshot.mcpServers.map((server) => [server.name, server]));
  const scope = new Scope(snapshot.agentName, declared, deps);
  return snapshot.tools.flatMap((schema): ToolImplementation[] => {
    if (schema.provider !== 'Mcp') return [];
    switch (schema.name) {
      case 'mcp_search':
        return [{ schema, run: (args) => Promise.resolve(scope.search(args)) }];
      case 'mcp_describe':
        return [{ schema, run: (args) => Promise.resolve(scope.describe(args)) }];
      case 'mcp_call':
        return [
          {
            schema,
            run: (args, context) =>
              scope.call(
                text(args.server),
                text(args.tool),
                objectArgument(args.arguments),
                context,
              ),
          },
        ];
      default:
        return schema.mcp === undefined ? [] : [direct(schema, scope)];
    }
  });
}

function direct(schema: ToolSchema, scope: Scope): ToolImplementation {
  const { server, tool } = schema.mcp!;
  return { schema, run: (args, context) => scope.call(server, tool, args, context) };
}

class Scope {
  constructor(
    private readonly agent: string,
    private readonly declared: Map<string, McpServerRef>,
    private readonly deps: McpGatewayDeps,
  ) {}

  search(args: Record<string, unknown>): string {
    const words = text(args.query).toLowerCase().split(/\s+/).filter(Boolean);
    const only = text(args.server);
    const servers = only === '' ? [...this.declared.values()] : [this.ref(only)];
    const lines: string[] = [];
    const notes: string[] = [];
    for (const ref of servers) {
      const pooled = this.pooled(ref.name);
      const tools = typeof pooled === 'string' ? null : pooled.tools();
      if (typeof pooled === 'string' || tools === null || pooled.status() !== 'connected') {
        notes.push(`${ref.name}: ${typeof pooled === 'string' ? pooled : notConnected(pooled)}`);
        if (tools === null) continue;
      }
      for (const tool of tools) {
        const haystack = `${tool.name} ${tool.description ?? ''}`.toLowerCase();
        if (words.every((word) => haystack.includes(word))) {
          lines.push(`${ref.name}/${tool.name}: ${firstLine(tool.description)}`);
        }
      }
    }
    const shown = lines.slice(0, MAX_LISTED);
    const out = [
      shown.length === 0 ? 'No tool of your MCP servers matches.' : shown.join('\n'),
      ...(lines.length > shown.length
        ? [`[${lines.length - shown.length} more matches not shown: narrow the query]`]
        : []),
      ...notes.map((note) => `[${note}]`),
    ];
    return out.join('\n');
  }

  describe(args: Record<string, unknown>): string {
    const ref = this.ref(text(args.server));
    const tool = this.tool(ref, text(args.tool));
    return JSON.stringify(
      {
        server: ref.name,
        tool: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
        needsApproval: !ref.approve.includes(tool.name),
      },
      null,
      2,
    );
  }

  async call(
    serverName: string,
    toolName: string,
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<string> {
    const ref = this.ref(serverName);
    const label = `${ref.name}/${toolName}`;
    const pooled = this.pooled(ref.name);
    if (typeof pooled === 'string') throw new ToolError(pooled, label);
    // A known list without the tool: say so now rather than ask the server.
    const listed = pooled.tools();
    if (listed !== null && !listed.some((tool) => tool.name === toolName)) {
      throw new ToolError(
        `server '${ref.name}' has no tool '${toolName}'; ${toolList(listed)}`,
        label,
      );
    }
    const timeoutMs = ref.toolTimeoutSeconds === 0 ? NO_TIMEOUT_MS : ref.toolTimeoutSeconds * 1000;
    let result;
    try {
      result = await pooled.call(toolName, args, { timeoutMs, signal: context.signal });
    } catch (error) {
      if (context.signal.aborted) throw error;
      throw new ToolError(callFailure(error, ref), label);
    }
    const { text: output, isError } = resultText(result);
    if (isError) throw new ToolError(output || 'the server reported an error', label);
    return output;
  }

  /** A declared server by its exact name; anything else is refused with the allowed ones. */
  private ref(name: string): McpServerRef {
    const ref = this.declared.get(name);
    if (ref === undefined) {
      const allowed = [...this.declared.keys()];
      throw new ToolError(
        `'${name}' is not one of your MCP servers; you may use: ${allowed.join(', ') || 'none'}`,
      );
    }
    return ref;
  }

  private tool(ref: McpServerRef, name: string): Tool {
    const pooled = this.pooled(ref.name);
    if (typeof pooled === 'string') throw new ToolError(pooled);
    const tools = pooled.tools();
    if (tools === null) throw new ToolError(`${ref.name}: ${notConnected(pooled)}`);
    const tool = tools.find((candidate) => candidate.name === name);
    if (tool === undefined) {
      throw new ToolError(`server '${ref.name}' has no tool '${name}'; ${toolList(tools)}`);
    }
    return tool;
  }

  private pooled(name: string): PooledServer | string {
    const found = this.deps.server(this.agent, name);
    return 'missing' in found ? `not in place yet: ${found.missing}` : found;
  }
}

function callFailure(error: unknown, ref: McpServerRef): string {
  if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) {
    return `no answer within ${ref.toolTimeoutSeconds} s (toolTimeoutSeconds); the call was abandoned`;
  }
  if (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number)) {
    return `server '${ref.name}' closed the connection during the call (did it crash?); deputy reconnects in the background`;
  }
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  if (error instanceof McpNotConnectedError) return message;
  if (!(error instanceof McpError)) {
    // The connection failed under the call (an http server that died: `fetch failed`).
    return `server '${ref.name}' could not be reached during the call (${message.slice(0, 200)}); deputy reconnects in the background`;
  }
  return message.slice(0, 500);
}

function notConnected(pooled: PooledServer): string {
  return pooled.status() === 'connecting'
    ? 'not connected yet (connecting)'
    : `not connected yet: ${pooled.lastError() ?? 'unknown error'} (retrying)`;
}

function toolList(tools: Tool[]): string {
  const names = tools.map((tool) => tool.name);
  const shown = names.slice(0, MAX_LISTED).join(', ');
  return `its tools: ${shown || 'none'}${names.length > MAX_LISTED ? ', ...' : ''}`;
}

function firstLine(description: string | undefined): string {
  return (description ?? '').split('\n')[0]!.slice(0, 200);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function objectArgument(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
