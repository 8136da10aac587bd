/**
 * The declared MCP servers: each matched to the workspace's configuration (or taken as
 * written inline), and its live state as the worker's pool sees it now. A server not in place
 * (not configured, disabled, not connected) keeps its gateway entry and is said to be missing.
 */
import type { LoadedDefinition } from '../definitions/definition.js';
import type { McpServerRef } from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { McpLiveLookup, McpServerLive } from './mcp-live.js';
import type { CapabilityConfigView } from './resolve-input.js';
import { list } from './tool-selection/selection-state.js';

/**
 * Each declared server's live state, when the worker could say. A server that is configured but
 * not connected keeps its gateway entry and is "not in place yet", like a disabled one.
 */
export function liveServers(
  servers: McpServerRef[],
  lookup: McpLiveLookup | undefined,
  diagnostics: Diagnostic[],
): Map<string, McpServerLive> {
  const live = new Map<string, McpServerLive>();
  if (lookup === undefined) return live;
  servers.forEach((server) => {
    const state = lookup(server.name);
    if (state === undefined) return;
    live.set(server.name, state);
    const alreadySaid = diagnostics.some(
      (diagnostic) =>
        (diagnostic.code === 'mcp.not-configured' || diagnostic.code === 'mcp.disabled') &&
        diagnostic.message.includes(`'${server.name}'`),
    );
    if (!state.connected && !alreadySaid) {
      diagnostics.push({
        severity: 'warning',
        path: 'mcpServers',
        code: 'mcp.not-connected',
        message: `MCP server '${server.name}' is declared but not connected: not in place yet (${state.problem ?? 'unknown'}). Its gateway entry is kept; calls work once it connects`,
      });
    }
  });
  return live;
}

/** Each declared server as the gateway needs it, once (the first entry of a name wins). */
export function resolveMcpServers(
  declared: LoadedDefinition['definition']['mcpServers'],
  config: CapabilityConfigView,
  diagnostics: Diagnostic[],
): McpServerRef[] {
  const result: McpServerRef[] = [];
  const configuredNames = Object.keys(config.mcpServers);
  declared.forEach((entry, index) => {
    const path = `mcpServers[${index}]`;
    let ref: McpServerRef;
    if (typeof entry === 'string') {
      const name =
        configuredNames.find((candidate) => candidate === entry) ??
        configuredNames.find((candidate) => candidate.toLowerCase() === entry.toLowerCase());
      const configured = name === undefined ? undefined : config.mcpServers[name];
      if (name === undefined || configured === undefined) {
        diagnostics.push({
          severity: 'warning',
          path,
          code: 'mcp.not-configured',
          message: `MCP server '${entry}' is declared but not configured in this workspace (configured: ${list(configuredNames)}): not in place yet. Its gateway entry is kept; add it to mcpServers in .subagents/config.yaml`,
        });
        ref = { name: entry, approve: [], toolTimeoutSeconds: config.mcpToolTimeoutSeconds };
      } else {
        if (!configured.enabled) {
          diagnostics.push({
            severity: 'warning',
            path,
            code: 'mcp.disabled',
            message: `MCP server '${name}' is configured but disabled: not in place yet. Its gateway entry is kept; enable it in .subagents/config.yaml to use it`,
          });
        }
        ref = {
          name,
          approve: [...configured.approve],
          toolTimeoutSeconds: configured.toolTimeoutSeconds ?? config.mcpToolTimeoutSeconds,
        };
      }
    } else {
      ref = {
        name: entry.name,
        approve: [...(entry.approve ?? [])],
        toolTimeoutSeconds: entry.toolTimeoutSeconds ?? config.mcpToolTimeoutSeconds,
      };
    }
    if (result.some((other) => other.name.toLowerCase() === ref.name.toLowerCase())) {
      diagnostics.push({
        severity: 'warning',
        path,
        code: 'mcp.duplicate',
        message: `MCP server '${ref.name}' is declared twice; the later entry is ignored`,
      });
      return;
    }
    result.push(ref);
  });
  return result;
}
