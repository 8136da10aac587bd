/**
 * Compaction between rounds (issue 30): when the last model call's input passed 75 % of the
 * model's context, or the transcript grew past its size bounds (src/shared/compaction.ts), all but
 * the last few rounds are replaced by a summary the same model writes; when that call fails after
 * its retries, they are dropped with a note saying how many (a documented truncation). Either way
 * a `compacted` event says so. Sandbox code.
 *
 * Replay: a history recorded before this existed never compacted; `patched` is asked only when a
 * compaction is due, so it answers false for those histories at the same point, and a run that
 * never needs one records no marker at all.
 */
import { isCancellation, patched } from '@temporalio/workflow';
import type { ResolvedAgent } from '../activities/types.js';
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
import { modelPromptOf, withSnapshot } from './snapshot-carrier.js';

export const COMPACTION_PATCH = 'transcript-compaction';

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
