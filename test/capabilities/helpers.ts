import type { ResolveInput } from '../../src/capabilities/resolve.js';
import type { IndexedSkill, SkillIndex } from '../../src/capabilities/skill-discovery.js';
import type { AgentDefinition, LoadedDefinition } from '../../src/definitions/definition.js';
import { ADMIN_ROLE, type Caller } from '../../src/shared/caller.js';
import { defaultDefinition } from '../definitions/support.js';

export const ADMIN: Caller = { id: 'alice', roles: [ADMIN_ROLE] };
export const USER: Caller = { id: 'bob', roles: ['user'] };
export const ANONYMOUS: Caller = { id: null, roles: [] };

export function definition(overrides: Partial<AgentDefinition> = {}): AgentDefinition {
  return defaultDefinition({
    name: 'helper',
    description: 'A helper',
    systemPrompt: 'Do the task well.\n',
    ...overrides,
  });
}

export function loaded(overrides: Partial<AgentDefinition> = {}): LoadedDefinition {
  return {
    definition: definition(overrides),
    level: 'project',
    readOnly: false,
    filePath: '/ws/.subagents/agents/helper.md',
    contentHash: 'abc123',
    diagnostics: [],
  };
}

export function skillIndex(...names: string[]): SkillIndex {
  return new Map(
    names.map((name): [string, IndexedSkill] => [
      name,
      {
        name,
        description: `Does ${name} things`,
        location: `/skills/${name}/SKILL.md`,
        layer: 'system',
      },
    ]),
  );
}

export function input(
  overrides: Partial<AgentDefinition> = {},
  rest: Partial<ResolveInput> = {},
): ResolveInput {
  return {
    loaded: loaded(overrides),
    config: {
      workspace: '/ws',
      dataDir: '/ws/.deputy',
      mcpServers: {
        github: { enabled: true, approve: ['search_issues'], toolTimeoutSeconds: 30 },
        jira: { enabled: false, approve: [] },
      },
      mcpToolTimeoutSeconds: 60,
    },
    caller: ANONYMOUS,
    skillIndex: skillIndex(),
    resolvedModel: 'openai/gpt-4o-mini',
    ...rest,
  };
}
