/** What each definition level is called on the console, and where its files live. */
import type { AgentLevel } from '../../api/agents';

export const LEVEL_LABELS: Record<AgentLevel, string> = {
  builtin: 'Built-in',
  user: 'User',
  project: 'Project',
  ecosystem: 'Ecosystem',
};

export const LEVEL_HINTS: Record<AgentLevel, string> = {
  builtin: 'Shipped with deputy (its agents/ folder). Read-only: copy one to change it.',
  user: 'Yours in every workspace: the agents/ folder of the user configuration directory.',
  project: 'This workspace only: .subagents/agents/.',
  ecosystem: 'Read from .claude/agents/ and .qwen/agents/ in this workspace. Read-only here.',
};
