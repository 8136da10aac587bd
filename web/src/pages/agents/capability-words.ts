/**
 * The one-line explanations the view page gives for each value of a capability dimension. An
 * empty dimension is stated plainly (what the agent does not get), because "undeclared means
 * unreachable" is the rule a reader most needs to see.
 */
import type { AgentSummary } from '../../api/agents';

export const MEMORY_MEANINGS: Record<AgentSummary['memory'], string> = {
  none: 'no memory directory; memory_read, memory_write and memory_search are not mounted.',
  private:
    'a memory directory of this agent in this workspace; the memory tools read and write only there, and its root notes are part of the prompt.',
  shared:
    "the main agent's memory directory, chosen explicitly; the memory tools read and write there, and its root notes are part of the prompt.",
};

export const APPROVAL_MEANINGS: Record<AgentSummary['approvalMode'], string> = {
  confirm: 'reads inside the workspace run; everything else opens an approval card.',
  'auto-in-workspace':
    'reads, and writes inside the writable roots, run without a card; commands and MCP calls ask.',
  'auto-edit':
    'reads and edits anywhere in the workspace run without a card; commands and MCP calls ask.',
  'full-access': 'every call of the tools it has runs without a card.',
};

export const FLAG_MEANINGS: Record<keyof AgentSummary['effectivePolicy']['flags'], string> = {
  readOnly: 'read-only (plan): writes and bash are denied',
  noHuman: 'nobody answers: a call that would ask is denied at once',
  protectInFullAccess: 'writes into protected paths still ask',
};

/** Said under a declared tools list: an allowlist, and a failed entry is never "all". */
export const TOOLS_DECLARED =
  'Only these; a spec that names nothing is a diagnostic, and if every entry fails the agent has no tools at all.';

export const EMPTY_STATEMENTS = {
  tools:
    "Inherits all tools: no tools list is declared, so it gets every tool the caller's roles permit (capability tools only for the dimensions it declares).",
  disallowedTools: 'No tools disallowed.',
  skills: 'No skills declared: no skill catalog, use_skill unavailable.',
  mcpServers:
    'No MCP servers declared: no MCP gateway, mcp_search, mcp_describe and mcp_call unavailable.',
  knowledge: 'No knowledge sources declared: no kb_search catalog, kb_search unavailable.',
  hooks: 'No hooks: nothing runs before or after its tool calls or when it stops.',
} as const;
