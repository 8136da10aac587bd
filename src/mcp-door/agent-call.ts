/**
 * A call of an agent's tool: a delegation started through the same start rules as every door
 * (src/temporal/start-requests.ts: masking, the agent's own `background`), as the connection's
 * caller, at the stricter of the caller's stated mode and the door's ceiling. Called as an MCP
 * task it answers the task at once; otherwise it answers with the delegation (follow.ts).
 */
import {
  ErrorCode,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type CreateTaskResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { LiveIndex } from '../definitions/registry/live-index.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import type { Delegations } from '../temporal/delegations/types.js';
import { delegationStart } from '../temporal/start-requests.js';
import { AgentCallSchema, type AgentCall } from './agent-tools.js';
import type { CardQuestions } from './card-questions.js';
import { stricterMode } from '../policy/mode-ceiling.js';
import { followDelegation, type Extra } from './follow.js';
import { taskOf } from './task-store.js';
import { unfinishedAnswer } from './tool-results.js';

export interface AgentCallContext {
  delegations: Delegations;
  definitions: Pick<LiveIndex, 'list'>;
  secrets: SecretMasker;
  caller: Caller;
  callerMode?: PermissionMode;
  questions: CardQuestions;
  pollMs: number;
  /** Whether the connected client declared elicitation. */
  elicits: () => boolean;
}

export async function callAgentTool(
  context: AgentCallContext,
  request: CallToolRequest,
  extra: Extra,
): Promise<CallToolResult | CreateTaskResult> {
  const { delegations, secrets } = context;
  const { name } = request.params;
  const loaded = context.definitions.list().find((entry) => entry.definition.name === name);
  if (loaded === undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `unknown tool '${name}': no agent or deputy tool has that name`,
    );
  }
  const call = AgentCallSchema.parse(request.params.arguments ?? {});
  const asTask = request.params.task !== undefined;
  const { request: start, background } = delegationStart(startAsk(context, name, call, asTask), {
    masker: secrets,
    agentRunsInBackground: () => loaded.definition.background === true,
  });
  const started = await delegations.start(start);
  if (asTask) {
    const now = new Date().toISOString();
    return {
      task: taskOf(started.delegationId, 'running', { createdAt: now, lastUpdatedAt: now }),
    };
  }
  if (background) {
    return unfinishedAnswer(
      secrets,
      await delegations.get(started.delegationId),
      'it runs in the background: follow it with deputy_status and deputy_result',
    );
  }
  return followDelegation(context, started, {
    request,
    extra,
    elicits: context.elicits(),
    ceiling: start.options.callerMode !== undefined,
  });
}

function startAsk(context: AgentCallContext, agent: string, call: AgentCall, asTask: boolean) {
  const callerMode = stricterMode(context.callerMode, call.mode);
  return {
    agent,
    task: call.task,
    caller: context.caller,
    // A task is followed with tasks/get and tasks/result, not by this call.
    background: call.background === true || asTask,
    ...(callerMode === undefined ? {} : { callerMode }),
  };
}
