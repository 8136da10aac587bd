import type { McpServerLive } from './mcp-live.js';
import type {
  KnowledgeSourceRef,
  McpServerRef,
  MemoryMode,
  SkillRef,
} from '../shared/capability-snapshot.js';
import type { ResidentMemoryFile } from '../shared/resident-memory.js';

/**
 * Prompt assembly (CAP-6): framing -> capability catalog (skills -> knowledge -> MCP -> memory)
 * -> definition body. A dimension that is not declared contributes no byte at all, so a
 * definition declaring none assembles to exactly `framing + body`: provider-side prompt caches
 * depend on that, and a golden test guards it.
 */

/**
 * Fixed framing. It deliberately names no capability (no skills, knowledge, MCP or memory):
 * an undeclared dimension must leave no trace in the prompt. Ends with a blank line so that
 * sections and body simply follow it.
 */
export const SUBAGENT_FRAMING =
  'You are a delegate: a subagent that a parent agent handed one task to. You can use only the ' +
  'tools listed in this request; nothing else is available to you, and asking for anything else ' +
  'gets "you don\'t have that". Work on the task, then answer with your result as plain text: ' +
  'your final answer is what the parent receives.\n\n';

export interface PromptMemory {
  mode: Exclude<MemoryMode, 'none'>;
  /** Root `*.md` files within budget (see `readResidentMemory`). */
  residentFiles: ResidentMemoryFile[];
  /** What was left out and why (files over budget, unreadable files). */
  notes: string[];
}

export interface PromptParts {
  framing: string;
  skills: SkillRef[];
  knowledge: KnowledgeSourceRef[];
  mcpServers: McpServerRef[];
  /** What the worker's pool knew of each server when this ran (absent: nothing). */
  mcpLive?: ReadonlyMap<string, McpServerLive>;
  /** null = memory not declared. */
  memory: PromptMemory | null;
  body: string;
}

export function assembleSystemPrompt(parts: PromptParts): string {
  const sections = [
    skillsSection(parts.skills),
    knowledgeSection(parts.knowledge),
    mcpSection(parts.mcpServers, parts.mcpLive ?? new Map()),
    memorySection(parts.memory),
  ];
  return parts.framing + sections.join('') + parts.body;
}

function skillsSection(skills: SkillRef[]): string {
  if (skills.length === 0) return '';
  const lines = skills.map(
    (skill) => `- ${skill.name}: ${oneLine(skill.description)} (location: ${skill.location})`,
  );
  return (
    '# Skills\n\n' +
    'Skills are written instructions for particular kinds of work. Before following one, load ' +
    'its full text with use_skill(name).\n\n' +
    lines.join('\n') +
    '\n\n'
  );
}

function knowledgeSection(knowledge: KnowledgeSourceRef[]): string {
  if (knowledge.length === 0) return '';
  const lines = knowledge.map((source) => `- ${source.name}: ${source.glob}`);
  return (
    '# Knowledge sources\n\n' +
    'Reference material in the workspace, left on disk; each line below is a source and its files. ' +
    'Search them with ' +
    'kb_search(query, source?): it returns ranked "path:line: text" hits. A hit is one line, not ' +
    'the answer: open the file with read to see its context.\n\n' +
    lines.join('\n') +
    '\n\n'
  );
}

/** A catalog line lists this many tool names at most; mcp_search finds the rest. */
const MCP_TOOLS_LISTED = 12;

function mcpSection(servers: McpServerRef[], live: ReadonlyMap<string, McpServerLive>): string {
  if (servers.length === 0) return '';
  const lines = servers.map((server) => `- ${server.name}${mcpServerState(live.get(server.name))}`);
  return (
    '# MCP servers\n\n' +
    'You can use tools of these MCP servers, and of no other: find them with mcp_search, see ' +
    'their arguments with mcp_describe, run them with mcp_call.\n\n' +
    lines.join('\n') +
    '\n\n'
  );
}

function mcpServerState(state: McpServerLive | undefined): string {
  if (state === undefined) return '';
  if (!state.connected) {
    return ` (not connected yet: ${oneLine(state.problem ?? 'unknown')}; its tools are unavailable until it is)`;
  }
  const names = state.tools.map((tool) => tool.name);
  const shown = names.slice(0, MCP_TOOLS_LISTED).join(', ');
  const more =
    names.length > MCP_TOOLS_LISTED ? `, and ${names.length - MCP_TOOLS_LISTED} more` : '';
  return `: ${names.length} tools (${shown}${more})`;
}

function memorySection(memory: PromptMemory | null): string {
  if (memory === null) return '';
  const whose =
    memory.mode === 'private'
      ? 'Your memory is private to you.'
      : 'Your memory is shared with the main agent: write only what it should know too.';
  let text =
    '# Memory\n\n' +
    `${whose} Save what is worth keeping with memory_write, read a file with memory_read, ` +
    'search it all with memory_search.\n\n';
  if (memory.residentFiles.length === 0) {
    text += 'Your resident memory is empty.\n\n';
  }
  for (const file of memory.residentFiles) {
    text += `## ${file.name}\n\n${file.content.replace(/\s+$/, '')}\n\n`;
  }
  for (const note of memory.notes) text += `Note: ${note}\n\n`;
  return text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
