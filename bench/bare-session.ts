/**
 * The session bench's baseline: a bare Temporal workflow of a session's shape, with
 * none of the session's own logic (rounds, policy, events, search attributes, handlers). It
 * resolves its main agent once, as the session does (resolveAgent), runs a model round
 * (callModel), starts the delegation the model's `Task` call names as a child workflow (deputy's
 * own `delegation`, with the input and start options a session's Task gives its child), feeds
 * the child's answer back and runs the second model round. It answers one query, `reply` (null
 * until it has one), which the bench polls as it polls a session's events: a bare workflow's
 * query against deputy's. Sandbox code, bundled only by the benchmark.
 */
import {
  defineQuery,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { DeputyActivities } from '../src/activities/index.js';
import {
  delegationWorkflowId,
  firstLine,
  type DelegationInput,
  type DelegationResult,
} from '../src/shared/delegation.js';
import type { ToolCallRequest, TranscriptEntry } from '../src/shared/model-contract.js';
import { initialSearchAttributes } from '../src/shared/workflow-contract/search-attributes.js';
import type { SessionInput } from '../src/shared/session.js';
import { delegation } from '../src/workflows/delegation.js';

const { resolveAgent, callModel } = proxyActivities<DeputyActivities>({
  startToCloseTimeout: '1 minute',
});

/** The reply once there is one, else null. */
export const bareReplyQuery = defineQuery<string | null>('reply');

/** Returns the main agent's reply, as the session records it. */
export async function bareSession(input: SessionInput): Promise<string> {
  let reply: string | null = null;
  setHandler(bareReplyQuery, () => reply);
  const { snapshot } = await resolveAgent({
    agent: input.agent,
    caller: input.caller,
    asSession: true,
  });
  const main = {
    agentName: snapshot.agentName,
    level: snapshot.level,
    model: snapshot.model,
    system: snapshot.systemPrompt,
    tools: snapshot.tools,
  };
  const transcript: TranscriptEntry[] = [{ role: 'user', content: input.message ?? '' }];
  const first = await callModel({ ...main, transcript });
  transcript.push({ role: 'assistant', content: first.text, toolCalls: first.toolCalls });
  for (const call of first.toolCalls) {
    const result = await runTask(input, call, snapshot.model);
    transcript.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: result.text,
      isError: result.status !== 'completed',
    });
  }
  const second = await callModel({ ...main, transcript });
  reply = second.text;
  return reply;
}

/** A foreground Task: the child a session would start for this call, and its result. */
async function runTask(
  input: SessionInput,
  call: ToolCallRequest,
  parentModel: string,
): Promise<DelegationResult> {
  const prompt = String(call.arguments.prompt ?? '');
  const agent = String(call.arguments.subagent_type ?? '');
  const description = String(call.arguments.description ?? '') || firstLine(prompt);
  const taskId = `d-${uuid4().replace(/-/g, '').slice(0, 12)}`;
  const child: DelegationInput = {
    delegationId: taskId,
    agent,
    task: prompt,
    session: input.sessionId,
    caller: input.caller,
    options: { background: false },
    parent: { sessionId: input.sessionId, workflowId: workflowInfo().workflowId },
    parentModel,
  };
  const handle = await startChild(delegation, {
    workflowId: delegationWorkflowId(input.sessionId, taskId),
    args: [child],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    parentClosePolicy: 'REQUEST_CANCEL',
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
    typedSearchAttributes: initialSearchAttributes({
      agent,
      session: input.sessionId,
      delegationId: taskId,
      parent: input.sessionId,
    }),
    memo: { task: firstLine(prompt), description },
    staticSummary: `${agent}: ${description}`.slice(0, 200),
  });
  return (await handle.result()) as DelegationResult;
}
