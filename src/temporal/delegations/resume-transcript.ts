/**
 * A finished delegation's whole transcript, read from its history for `deputy resume`:
 * the transcript its last model call was sent (fork-transcript.ts reads the same inputs), that
 * call's answer, and for each tool call of that answer which never got a result to the model (the
 * run ended first: out of turns, stopped on a card, failed) a result saying so, because a model
 * API refuses a tool call without a result. Nothing runs again. Every run of the workflow id is
 * read, so a delegation that continued-as-new is found too.
 */
import type { Client } from '@temporalio/client';
import type { CallModelInput, ModelTurn } from '../../shared/workflow-contract/activities.js';
import { roundsIn } from '../../shared/compaction.js';
import type { TranscriptEntry } from '../../shared/model-contract.js';

/** The transcript after its last model round, or null when no model call was ever scheduled. */
export async function transcriptAfterLastRound(
  client: Client,
  workflowId: string,
  ending: string,
): Promise<TranscriptEntry[] | null> {
  const converter = client.options.loadedDataConverter.payloadConverter;
  let last: { transcript: TranscriptEntry[]; answer: ModelTurn | null } | null = null;
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await client.workflow.getHandle(workflowId, run.runId).fetchHistory();
    const events = history.events ?? [];
    for (const event of events) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name !== 'callModel') continue;
      const payload = scheduled.input?.payloads?.[0];
      if (!payload) continue;
      const { transcript } = converter.fromPayload<CallModelInput>(payload);
      if (last !== null && answersIn(transcript) < answersIn(last.transcript)) continue;
      const completed = events.find(
        (candidate) =>
          candidate.activityTaskCompletedEventAttributes?.scheduledEventId?.toString() ===
          event.eventId?.toString(),
      );
      const result = completed?.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
      last = { transcript, answer: result ? converter.fromPayload<ModelTurn>(result) : null };
    }
  }
  if (last === null) return null;
  const { transcript, answer } = last;
  if (answer === null) return [...transcript];
  return [
    ...transcript,
    { role: 'assistant', content: answer.text, toolCalls: answer.toolCalls },
    ...answer.toolCalls.map((call): TranscriptEntry => ({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: `No result: the delegation ended (${ending}) before this call's result reached the model; it was not run again.`,
      isError: true,
    })),
  ];
}

/** Rounds before a call: its answers, and those a compaction's summary stands for. */
function answersIn(transcript: TranscriptEntry[]): number {
  return roundsIn(transcript);
}
