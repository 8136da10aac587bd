/**
 * One MCP tool per agent: its name and description from the definition, its input the
 * task. What the registry lists is what a caller may delegate to: the roles the caller holds
 * decide which tools the agent gets once it runs, whichever door it came through.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { LoadedDefinition } from '../definitions/definition.js';
import { MAX_TASK_BYTES } from '../shared/task-limit.js';
import { PERMISSION_MODES } from '../shared/policy-contract.js';

export const AgentCallSchema = z
  .object({
    task: z
      .string()
      .regex(/\S/, 'must not be empty')
      .refine((task) => Buffer.byteLength(task, 'utf8') <= MAX_TASK_BYTES, {
        message: `at most ${MAX_TASK_BYTES} bytes (UTF-8); put longer material in a workspace file and name it`,
      })
      .describe('What the agent is to do'),
    background: z
      .boolean()
      .optional()
      .describe(
        'Return the delegation id at once instead of waiting; follow it with deputy_status and deputy_result',
      ),
    mode: z
      .enum(PERMISSION_MODES)
      .optional()
      .describe(
        "The caller's own permission mode (Claude Code's names): the agent runs at the stricter of its own mode and this one",
      ),
  })
  .strict();
export type AgentCall = z.infer<typeof AgentCallSchema>;

const AGENT_INPUT_SCHEMA = z.toJSONSchema(AgentCallSchema, { io: 'input' }) as Tool['inputSchema'];

/** The structured content every agent tool answers with (tool-results.ts `DelegationAnswer`). */
const DELEGATION_ANSWER_SCHEMA: Tool['outputSchema'] = {
  type: 'object',
  properties: {
    delegationId: { type: 'string' },
    agent: { type: 'string' },
    status: { type: 'string' },
    text: { type: 'string' },
    notice: { type: ['string', 'null'] },
    pendingCards: { type: 'array', items: { type: 'object' } },
    deniedCalls: { type: 'array', items: { type: 'object' } },
    usage: { type: ['object', 'null'] },
    message: { type: 'string' },
    permission: { type: 'object' },
  },
  required: ['delegationId', 'agent', 'status', 'text'],
};

export function agentTool(loaded: LoadedDefinition): Tool {
  const { definition } = loaded;
  return {
    name: definition.name,
    title: definition.name,
    description: definition.description,
    inputSchema: AGENT_INPUT_SCHEMA,
    outputSchema: DELEGATION_ANSWER_SCHEMA,
    // A host with MCP Tasks may run it as a task (a durable delegation); others wait for it.
    execution: { taskSupport: 'optional' },
    annotations: { title: definition.name, readOnlyHint: false, openWorldHint: true },
  };
}
