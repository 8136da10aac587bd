/**
 * A delegation's transcript as its model saw it before a given round, read from its history:
 * every `callModel` activity records the transcript it was sent, tool results included (long
 * ones by blob reference, which the model call reads back). Every run of the workflow id is
 * read, so a delegation that continued-as-new is found too. A round after a compaction gets the
 * compacted transcript (the summary and the kept rounds), as its model call was sent it.
 */
import type { Client } from '@temporalio/client';
import type { CallModelInput } from '../../shared/workflow-contract/activities.js';
import { roundsIn } from '../../shared/compaction.js';
import type { TranscriptEntry } from '../../shared/model-contract.js';

/** The transcript round `round`'s model call was sent, or null when no such call ran. */
export async function transcriptBeforeRound(
  client: Client,
  workflowId: string,
  round: number,
): Promise<TranscriptEntry[] | null> {
  const converter = client.options.loadedDataConverter.payloadConverter;
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await client.workflow.getHandle(workflowId, run.runId).fetchHistory();
    for (const event of history.events ?? []) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      if (scheduled?.activityType?.name !== 'callModel') continue;
      const payload = scheduled.input?.payloads?.[0];
      if (!payload) continue;
      const input = converter.fromPayload<CallModelInput>(payload);
      // Round k's call is sent the transcript with the k - 1 answers before it; after a
      // compaction its summary entry counts for the rounds it replaced.
      if (roundsIn(input.transcript) === round - 1) return input.transcript;
    }
  }
  return null;
}
