/**
 * B1 baseline: a bare Temporal workflow that runs exactly the activities a delegation runs
 * (resolveAgent once, then callModel + runTool per round) with none of deputy's workflow logic
 * (policy, cards, events, search attributes). Sandbox code, bundled only by the benchmark.
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { DeputyActivities } from '../src/activities/index.js';
import type { TranscriptEntry } from '../src/shared/model-contract.js';

const { resolveAgent, callModel, runTool } = proxyActivities<DeputyActivities>({
  startToCloseTimeout: '1 minute',
});
const local = proxyLocalActivities<DeputyActivities>({ startToCloseTimeout: '1 minute' });

export function bareRounds(agent: string, task: string): Promise<number> {
  return bareLoop(agent, task);
}

/**
 * The step-latency baseline: the same loop with each tool call as a local activity, the shape
 * of a delegation whose tools are all reads.
 */
export function bareLocalReads(agent: string, task: string): Promise<number> {
  return bareLoop(agent, task, undefined, local.runTool);
}

/**
 * The loop of a bare run; `beforeTool` runs before each tool call (the card-resume baseline
 * waits for its signal there). Returns the rounds used.
 */
export async function bareLoop(
  agent: string,
  task: string,
  beforeTool?: () => Promise<void>,
  tool: DeputyActivities['runTool'] = runTool,
): Promise<number> {
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
      await beforeTool?.();
      const outcome = await tool({ snapshot, call });
      transcript.push({ role: 'tool', toolCallId: call.id, toolName: call.name, ...outcome });
    }
  }
}
