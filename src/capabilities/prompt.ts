import type { McpServerLive } from './mcp-live.js';
import type {
  KnowledgeSourceRef,
  McpServerRef,
  MemoryMode,
  SkillRef,
} from '../shared/capability-snapshot.js';
import type { ResidentMemoryFile } from '../shared/resident-memory.js';
import type { PolicyFlags } from '../shared/policy-contract.js';
import { parseCommandPattern } from '../policy/tool-patterns.js';

/**
 * Prompt assembly: framing -> policy notes (permission mode, then tool patterns) ->
 * capability catalog (skills -> knowledge -> MCP -> memory) -> definition body. A dimension that
 * is not declared contributes no byte at all, and neither do the policy notes when there are no
 * policy flags and no tool patterns, so a definition declaring none assembles to exactly
 * `framing + body`: provider-side prompt caches depend on that, and a golden test guards it. The
 * policy notes tell the model up front what it would otherwise learn only from a refusal; they
 * come right after the framing because they change only with the definition (the catalog may
 * carry live MCP state and memory), which keeps the cached prefix long.
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

/** A session's main agent: it talks with a person and hands work to subagents. */
export const MAIN_AGENT_FRAMING =
  'You are the main agent of a session: you talk with the user and may hand tasks to subagents ' +
  'with the Task tool (each works with its own tools and answers you with its result). You can ' +
  'use only the tools listed in this request; asking for anything else gets "you don\'t have ' +
  'that". Answer the user as plain text.\n\n';

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
  /** The snapshot's `toolPatterns` (Claude Code patterns); absent or empty: no section. */
  toolPatterns?: Readonly<Record<string, readonly string[]>>;
  /** The snapshot's `policyFlags` (permissionMode); absent, or neither plan nor dontAsk: none. */
  policyFlags?: PolicyFlags;
  body: string;
}

export function assembleSystemPrompt(parts: PromptParts): string {
  const sections = [
    permissionSection(parts.policyFlags ?? {}),
    toolPatternsSection(parts.toolPatterns ?? {}),
    skillsSection(parts.skills),
    knowledgeSection(parts.knowledge),
    mcpSection(parts.mcpServers, parts.mcpLive ?? new Map()),
    memorySection(parts.memory),
  ];
  return parts.framing + sections.join('') + parts.body;
}

/** One sentence per flag that changes what the model may try: plan (readOnly), dontAsk (noHuman). */
function permissionSection(flags: PolicyFlags): string {
  const lines: string[] = [];
  if (flags.readOnly === true) {
    lines.push(
      'You are in plan mode: you are read-only, so every call that would change files or run ' +
        'commands is denied; read what you need and present the plan in your answer.',
    );
  }
  if (flags.noHuman === true) {
    lines.push(
      'No one answers approval requests for you: a call that would need approval is denied at ' +
        'once instead of waiting, so work with the calls that are allowed without one.',
    );
  }
  if (lines.length === 0) return '';
  return '# Permissions\n\n' + lines.join('\n\n') + '\n\n';
}

/** Per restricted tool, what its patterns allow (src/policy/tool-patterns.ts is the judge). */
function toolPatternsSection(patterns: Readonly<Record<string, readonly string[]>>): string {
  const names = Object.keys(patterns).sort((a, b) =>
    a === 'bash' ? -1 : b === 'bash' ? 1 : a.localeCompare(b),
  );
  if (names.length === 0) return '';
  const lines = names.map((name) => {
    const list = patterns[name] ?? [];
    if (list.length === 0) return `- ${name}: nothing (none of its patterns could be used)`;
    if (name === 'bash') {
      const shown = list.map((pattern) => {
        const parsed = parseCommandPattern(pattern);
        if (typeof parsed === 'string') return `\`${pattern}\``;
        const words = parsed.words.join(' ');
        return parsed.prefix ? `\`${words}\` with any arguments` : `\`${words}\` exactly`;
      });
      return (
        `- bash: only ${shown.join(', ')}. Every command of a call must match one; anything else ` +
        'is refused, including chaining (;, &&, ||, |), command or process substitution, ' +
        'variables, redirection to or from files, subshells and control structures'
      );
    }
    const globs = list.map((glob) => `\`${glob}\``).join(', ');
    return `- ${name}: only paths matching ${globs} (relative to the workspace); a call that names another path, or none, is refused`;
  });
  return (
    '# Restricted tools\n\n' +
    'These tools are limited to the commands or paths below; a call outside them is refused ' +
    'without running.\n\n' +
    lines.join('\n') +
    '\n\n'
  );
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
