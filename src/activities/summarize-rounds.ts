/**
 * A compaction's summary: the same model, sent the rounds to replace and a fixed
 * instruction (src/shared/compaction.ts), with the agent's tools still declared (a provider
 * refuses tool calls in a conversation without them) but none run: only the answer's text counts.
 * An empty answer fails without retries, and the workflow drops the rounds with a note instead.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { SUMMARY_EMPTY, summaryRequest } from '../shared/compaction.js';
import type { TokenUsage } from '../shared/model-contract.js';
import type { ModelCall, ModelTurn } from '../shared/workflow-contract/activities.js';

/** What the workflow records of a summary call. */
export interface RoundsSummary {
  text: string;
  usage?: TokenUsage;
}

/** `callModel` is the model-call activity's body (the adapter, blobs, masking); injected. */
export async function summarizeRoundsActivity(
  input: ModelCall,
  callModel: (input: ModelCall) => Promise<ModelTurn>,
): Promise<RoundsSummary> {
  const answer = await callModel({ ...input, transcript: summaryRequest(input.transcript) });
  const text = answer.text.trim();
  if (text === '') {
    throw ApplicationFailure.nonRetryable(
      'the model answered the summary request with no text',
      SUMMARY_EMPTY,
    );
  }
  return { text, ...(answer.usage === undefined ? {} : { usage: answer.usage }) };
}
