/**
 * Card-resume baseline: a bare Temporal workflow that runs the activities a delegation with one
 * approval card runs (resolveAgent, callModel answering a tool call, then, once a signal says
 * go, runTool of that call and the final callModel), with none of deputy's workflow logic (no
 * policy, card book, events, memo or search attributes). The signal carries a CardDecision, so
 * both sides receive the same payload. Sandbox code, bundled only by the benchmark.
 */
import { condition, defineQuery, defineSignal, setHandler } from '@temporalio/workflow';
import type { CardDecision } from '../src/shared/delegation.js';
import { bareLoop } from './bare-workflow.js';

/** Same name as deputy's own signal: the history events of both sides read alike. */
export const bareGoSignal = defineSignal<[CardDecision]>('decideCard');
/** True once the workflow waits for the signal (the delegation side polls its pending cards). */
export const bareWaitingQuery = defineQuery<boolean>('waiting');

export function bareSignal(agent: string, task: string): Promise<number> {
  let waiting = false;
  let decided = false;
  setHandler(bareWaitingQuery, () => waiting);
  setHandler(bareGoSignal, () => {
    decided = true;
  });
  return bareLoop(agent, task, async () => {
    waiting = true;
    await condition(() => decided);
    waiting = false;
    decided = false;
  });
}
