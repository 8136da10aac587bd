/**
 * Card-resume baseline: a bare Temporal workflow that runs the activities a delegation with one
 * approval card runs (resolveAgent, callModel answering a tool call, then, once a signal says
 * go, runTool of that call and the final callModel), with none of deputy's workflow logic (no
 * policy, card book, events, memo or search attributes). The signal carries a CardDecision, so
 * both sides receive the same payload. Sandbox code, bundled only by the benchmark.
 */
import {
  condition,
  defineQuery,
  defineSignal,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { DeputyActivities } from '../src/activities/index.js';
import type { CardDecision } from '../src/shared/delegation.js';
import type { TranscriptEntry } from '../src/shared/model-contract.js';

const { resolveAgent, callModel, runTool } = proxyActivities<DeputyActivities>({
  startToCloseTimeout: '1 minute',
});

/** Same name as deputy's own signal: the history events of both sides read alike. */
export const bareGoSignal = defineSignal<[CardDecision]>('decideCard');
/** True once the workflow waits for the signal (the delegation side polls its pending cards). */
export const bareWaitingQuery = defineQuery<boolean>('waiting');

export async function bareSignal(agent: string, task: string): Promise<number> {
  let waiting = false;
  let decided = false;
  setHandler(bareWaitingQuery, () => waiting);
  setHandler(bareGoSignal, () => {
    decided = true;
  });
  const { snapshot } = await resolveAgent({ agent, caller: { id: null, roles: [] } });
  const transcript: TranscriptEntry[] = [{ role: 'user', content: task }];
  for (let round = 1; ; round++) {
    const turn = await callModel({
      agentName: snapshot.agentName,
      level: snapshot.level,
      model: snapshot.model,
      system: snapshot.systemPrompt,
      tools: snapshot.tools,
      transcript,
    });
    transcript.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });
    if (turn.toolCalls.length === 0) return round;
    for (const call of turn.toolCalls) {
      waiting = true;
      await condition(() => decided);
      waiting = false;
      decided = false;
      const outcome = await runTool({ snapshot, call });
      transcript.push({ role: 'tool', toolCallId: call.id, toolName: call.name, ...outcome });
    }
  }
}
