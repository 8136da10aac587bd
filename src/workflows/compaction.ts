/**
 * Compaction between rounds: when the last model call's input passed 75 % of the
 * model's context, or the transcript grew past its size bounds (src/shared/compaction.ts), all but
 * the last few rounds are replaced by a summary the same model writes; when that call fails after
 * its retries, they are dropped with a note saying how many (a documented truncation). Either way
 * a `compacted` event says so. Sandbox code.
 *
 * Replay: the patch is asked on a run's first workflow task (askCompactionPatchFirst), so its
 * answer holds for the whole run. Asked first between rounds instead, right after a local read,
 * a replay could ask it one workflow task before the one that recorded its marker, and fail: the
 * SDK may record a read's result in a task that ends before the code after the read has run
 * (seen with state queries arriving mid-task), and a replay runs that code in the earlier task,
 * where the marker is not known yet. A history recorded before this never compacted, or recorded
 * the marker at its first compaction: the replay's early answer is then false and not kept, and
 * `patched` is asked again where a compaction is due.
 */
import { isCancellation, patched } from '@temporalio/workflow';
import type { ResolvedAgent } from '../shared/workflow-contract/activities.js';
import {
  compactionDue,
  compactionRange,
  estimatedTokens,
  summaryEntry,
  truncationEntry,
} from '../shared/compaction.js';
import type { TokenUsage, TranscriptEntry } from '../shared/model-contract.js';
import { activitiesWith, SUMMARY_CALL } from './activity-options.js';
import type { DelegationRun } from './delegation-run.js';
import { causeOf } from './failure-notice.js';
import { modelPromptOf, withSnapshot } from './continue-as-new/snapshot-carrier.js';

export const COMPACTION_PATCH = 'transcript-compaction';

/** On the run's first workflow task, before any await: see the replay note above. */
export function askCompactionPatchFirst(): void {
  patched(COMPACTION_PATCH);
}

/** Compacts the run's transcript when it is due; between rounds only (no call awaits a result). */
export async function compactIfDue(
  run: DelegationRun,
  resolved: ResolvedAgent,
  toolQueue: string | undefined,
): Promise<void> {
  const last = run.lastModelCall();
  if (!compactionDue(run.transcript, last.inputTokens, last.contextTokens)) return;
  const range = compactionRange(run.transcript);
  if (range === null || !patched(COMPACTION_PATCH)) return;
  const replaced = run.transcript.slice(range.from, range.to);
  // The task stays in the request, so the summary is written with it in view.
  const toSummarize = run.transcript.slice(0, range.to);
  let entry: TranscriptEntry;
  let usage: TokenUsage | null | undefined;
  let reason: string | null = null;
  try {
    const { summarizeRounds } = activitiesWith(
      SUMMARY_CALL,
      `compact ${range.rounds} rounds`,
      toolQueue,
    );
    const summary = await withSnapshot(resolved, (carrier) =>
      summarizeRounds({
        agentName: resolved.snapshot.agentName,
        level: resolved.snapshot.level,
        model: resolved.snapshot.model,
        transcript: toSummarize,
        ...modelPromptOf(carrier),
      }),
    );
    entry = summaryEntry(range.rounds, summary.text);
    usage = summary.usage ?? null;
  } catch (error) {
    // A stop while the summary is written stops the delegation, as anywhere else.
    if (isCancellation(error)) throw error;
    reason = causeOf(error);
    entry = truncationEntry(range.rounds, replaced.length, reason);
  }
  run.recordCompaction(
    range,
    entry,
    {
      by: reason === null ? 'summary' : 'truncation',
      roundsReplaced: range.rounds,
      entriesReplaced: replaced.length,
      tokensBefore: estimatedTokens(run.transcript),
      ...(last.inputTokens === undefined ? {} : { lastInputTokens: last.inputTokens }),
      ...(last.contextTokens === undefined ? {} : { contextTokens: last.contextTokens }),
      text: entry.content,
    },
    usage,
  );
}
