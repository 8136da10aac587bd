/**
 * A loaded definition as the authoring API shows it. The list leaves out the
 * large or sensitive parts (system prompt, MCP servers, hooks) and gives their names instead;
 * the detail has them, with every MCP env value, header and OAuth client secret replaced by
 * `__redacted__`. The routes pass both through the configured-secret masker as well.
 */
import type { InlineMcpServer, LoadedDefinition } from '../../definitions/definition.js';
import { effectivePolicy } from '../../policy/permission-mode.js';
import { HOOK_EVENTS } from '../../definitions/schema.js';
import type { RevisionInfo } from '../../definitions/registry/revisions.js';
import type { Diagnostic } from '../../shared/diagnostics.js';
import { REDACTED } from '../../shared/redact.js';
import type { AgentDetail, AgentSummary } from './schemas.js';

const READ_ONLY_REASONS: Partial<Record<LoadedDefinition['level'], string>> = {
  builtin: 'a built-in agent: duplicate it to the user or project level to change it',
  ecosystem: 'read from .claude/agents or .qwen/agents: edit that file itself',
};

/**
 * `diagnostics`: what to count and show; default the file's load diagnostics. The routes pass
 * those plus resolution's for the caller (resolution.ts).
 */
export function agentSummary(
  loaded: LoadedDefinition,
  effective: boolean,
  diagnostics: readonly Diagnostic[] = loaded.diagnostics,
): AgentSummary {
  const { definition } = loaded;
  const runConfig = definition.unknownKeys.runConfig;
  const counts = { total: 0, error: 0, warning: 0, info: 0 };
  for (const diagnostic of diagnostics) {
    counts.total += 1;
    counts[diagnostic.severity] += 1;
  }
  const reason = loaded.readOnly ? READ_ONLY_REASONS[loaded.level] : undefined;
  return {
    kind: 'agent',
    name: definition.name,
    description: definition.description,
    level: loaded.level,
    isBuiltin: loaded.level === 'builtin',
    readOnly: loaded.readOnly,
    ...(reason === undefined ? {} : { readOnlyReason: reason }),
    effective,
    hasTools: definition.tools !== null && definition.tools.length > 0,
    tools: definition.tools ?? [],
    disallowedTools: definition.disallowedTools,
    model: definition.model,
    approvalMode: definition.approvalMode,
    permissionMode: definition.permissionMode,
    effectivePolicy: effectivePolicy(definition),
    maxTurns: definition.maxTurns,
    ...(definition.maxTokens === undefined ? {} : { maxTokens: definition.maxTokens }),
    ...(isRecord(runConfig) ? { runConfig } : {}),
    background: definition.background,
    ...(definition.cardTimeout === undefined ? {} : { cardTimeout: definition.cardTimeout }),
    ...(definition.cardReminder === undefined ? {} : { cardReminder: definition.cardReminder }),
    ...(definition.cardTimeoutOutcome === undefined
      ? {}
      : { cardTimeoutOutcome: definition.cardTimeoutOutcome }),
    ...(definition.sandbox === undefined ? {} : { sandbox: definition.sandbox }),
    color: definition.color,
    icon: definition.icon,
    displayOrder: definition.displayOrder,
    skills: definition.skills,
    knowledge: definition.knowledge,
    memory: definition.memory,
    mcpServerNames: definition.mcpServers.map((entry) =>
      typeof entry === 'string' ? entry : entry.name,
    ),
    hookEvents: HOOK_EVENTS.filter((event) => (definition.hooks[event]?.length ?? 0) > 0),
    filePath: loaded.filePath,
    contentHash: loaded.contentHash,
    diagnosticCount: counts,
  };
}

export function agentDetail(
  loaded: LoadedDefinition,
  effective: boolean,
  revisions: RevisionInfo[],
  diagnostics: readonly Diagnostic[] = loaded.diagnostics,
): AgentDetail {
  const { definition } = loaded;
  return {
    ...agentSummary(loaded, effective, diagnostics),
    systemPrompt: definition.systemPrompt,
    mcpServers: mcpServerRecord(definition.mcpServers),
    hooks: definition.hooks,
    diagnostics: [...diagnostics],
    revisions,
  };
}

/**
 * qwen-code's and Claude Code's form, `{name: server}`: inline servers without their name and
 * with secrets redacted; a server configured for the workspace as `{}` (its settings live in
 * config.yaml, and the request schema reads `{}` back as that reference).
 */
export function mcpServerRecord(
  entries: ReadonlyArray<string | InlineMcpServer>,
): Record<string, Record<string, unknown>> {
  // fromEntries defines own keys, so a server named `__proto__` stays an ordinary key.
  return Object.fromEntries(
    entries.map((entry): [string, Record<string, unknown>] => {
      if (typeof entry === 'string') return [entry, {}];
      const { name, ...server } = redactedServer(entry);
      return [name, server];
    }),
  );
}

/** Every env value and header, and the OAuth client secret, as `__redacted__`. */
export function redactedServer(server: InlineMcpServer): InlineMcpServer {
  const copy: InlineMcpServer = { ...server };
  if (server.env !== undefined) copy.env = redactValues(server.env);
  if (server.headers !== undefined) copy.headers = redactValues(server.headers);
  if (server.oauth?.clientSecret !== undefined) {
    copy.oauth = { ...server.oauth, clientSecret: REDACTED };
  }
  return copy;
}

function redactValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).map((key) => [key, REDACTED]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
