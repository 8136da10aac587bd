import type { CapabilitySnapshot } from '../shared/capability-snapshot.js';
import { createBashTool } from './bash.js';
import { createFileSystemTools } from './file-system.js';
import { createKbSearchTool } from './kb-search.js';
import { createMemoryTools } from './memory.js';
import { createUseSkillTool } from './skills.js';
import { ToolError, type ToolImplementation } from './tool.js';

export interface ToolboxOptions {
  /** Real absolute workspace root. */
  workspaceRoot: string;
  /**
   * Resolved paths no agent may read (deputyRoots(config).hiddenRoots): searches skip them and
   * a sandboxed bash call does not see them.
   */
  hiddenRoots: readonly string[];
  /** Implementations built elsewhere for this snapshot (the MCP gateway's, src/mcp-client/). */
  extra?: readonly ToolImplementation[];
}

/**
 * The implementations of exactly the snapshot's tools, keyed by name. A tool the snapshot does
 * not list is not in the map (so "you don't have that" is structural); a listed tool without
 * an implementation (MCP tools in a process that has no MCP gateway) fails with a clear message
 * rather than disappearing.
 */
export function buildToolbox(
  snapshot: CapabilitySnapshot,
  options: ToolboxOptions,
): Map<string, ToolImplementation> {
  const implementations = new Map<string, ToolImplementation>();
  const offer = (tool: ToolImplementation): void => {
    implementations.set(tool.schema.name, tool);
  };
  const wanted = new Set(snapshot.tools.map((tool) => tool.name));
  const any = (...names: string[]): boolean => names.some((name) => wanted.has(name));

  const { workspaceRoot, hiddenRoots } = options;
  if (any('read', 'write', 'edit', 'glob', 'grep')) {
    createFileSystemTools({ hiddenRoots }).forEach(offer);
  }
  if (any('bash')) offer(createBashTool({ hiddenRoots }));
  if (any('kb_search')) {
    offer(createKbSearchTool(snapshot.knowledge, workspaceRoot, {}, hiddenRoots));
  }
  if (snapshot.memory !== null && any('memory_write', 'memory_read', 'memory_search')) {
    createMemoryTools(snapshot.memory).forEach(offer);
  }
  if (any('use_skill')) offer(createUseSkillTool(snapshot.skills));
  options.extra?.forEach(offer);

  const toolbox = new Map<string, ToolImplementation>();
  for (const schema of snapshot.tools) {
    const implementation = implementations.get(schema.name);
    // The snapshot's schema wins: it is what the model was shown for this delegation.
    toolbox.set(
      schema.name,
      implementation === undefined
        ? unavailable(schema)
        : { schema, run: (args, context) => implementation.run(args, context) },
    );
  }
  return toolbox;
}

function unavailable(schema: ToolImplementation['schema']): ToolImplementation {
  const reason =
    schema.provider === 'Mcp'
      ? `this worker has no MCP gateway: '${schema.name}' is declared but cannot run here`
      : `tool '${schema.name}' has no implementation in this runtime`;
  return {
    schema,
    run: () => Promise.reject(new ToolError(reason)),
  };
}
