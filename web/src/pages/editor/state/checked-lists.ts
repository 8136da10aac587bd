/**
 * The names each declared list holds, now (the form's fields) or when a check answered (what it
 * was asked about, or what the YAML parsed to): what tells a problem about a name still shown
 * from one about a name since removed.
 */
import type { CheckedLists } from '../diagnostics';
import {
  knowledgeKey,
  mcpEntryName,
  type Fields,
  type McpEntry,
  type NameList,
} from '../form-model';
import type { Checked } from '../use-agent-check';

export function namesOf(fields: Pick<Fields, NameList>): Record<NameList, string[]> {
  return {
    tools: fields.tools,
    disallowedTools: fields.disallowedTools,
    skills: fields.skills,
    mcpServers: fields.mcpServers.map((entry: McpEntry) => mcpEntryName(entry)),
  };
}

/** The names each list held when checked: the request's (form) or the parse's (YAML). */
export function checkedLists(checked: Checked): CheckedLists {
  const { input } = checked.request;
  if ('agent' in input) {
    const agent = input.agent as Partial<Fields>;
    return {
      ...namesOf({
        tools: agent.tools ?? [],
        disallowedTools: agent.disallowedTools ?? [],
        skills: agent.skills ?? [],
        mcpServers: agent.mcpServers ?? [],
      }),
      knowledge: (agent.knowledge ?? []).map(knowledgeKey),
    };
  }
  const { agent } = checked.answer;
  return {
    tools: agent.tools,
    disallowedTools: agent.disallowedTools,
    skills: agent.skills,
    mcpServers: Object.keys(agent.mcpServers),
    knowledge: agent.knowledge.map(knowledgeKey),
  };
}
