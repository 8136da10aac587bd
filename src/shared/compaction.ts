/**
 * Bounded transcripts for long runs: when a delegation's transcript nears its model's
 * context, or grows past a size its history should not carry round after round, its older rounds
 * are replaced by one summary entry. Pure functions, shared by the workflow (which decides and
 * splices), the model call (which writes the summary) and the readers of history (fork, resume,
 * the scripted model), which count rounds through the summary.
 */
import type { TranscriptEntry } from './model-contract.js';

/** Compact once the last model call's input passed this share of the model's context window. */
export const CONTEXT_SHARE = 0.75;
/** Compact once the transcript holds more entries than this (a round is 2 or more). */
export const MAX_TRANSCRIPT_ENTRIES = 1_000;
/**
 * Compact once the transcript's JSON passes this many characters: every model call records it
 * in history, and Temporal warns about a payload past 512 KB (and refuses one past 2 MB).
 */
export const MAX_TRANSCRIPT_CHARS = 400_000;
/** The most recent rounds a compaction keeps word for word. */
export const KEPT_ROUNDS = 8;

/** The instruction of a summary request: the last entry of the transcript the model is sent. */
export const SUMMARY_INSTRUCTION =
  '[deputy] Your conversation is being compacted to fit your context. Summarize everything ' +
  'above for yourself: the task, what you did and found (files, results, decisions), and what ' +
  'is left to do. Answer with the summary as plain text only; do not call any tool.';

/** The failure type of a summary request answered with no text (never retried). */
export const SUMMARY_EMPTY = 'SummaryEmpty';

/** How the older rounds were replaced. */
export type CompactionKind = 'summary' | 'truncation';

/** What a compaction entry records besides its text. */
export interface CompactionMark {
  /** Rounds (model answers) the entry stands for, those of earlier compactions included. */
  rounds: number;
  by: CompactionKind;
}

/** The user entry that stands for the replaced rounds. */
export type CompactionEntry = Extract<TranscriptEntry, { role: 'user' }> & {
  compacted: CompactionMark;
};

/** Model rounds a transcript holds: its answers, and the rounds its compaction entries replaced. */
export function roundsIn(transcript: readonly TranscriptEntry[]): number {
  let rounds = 0;
  for (const entry of transcript) {
    if (entry.role === 'assistant') rounds += 1;
    else if (entry.role === 'user' && entry.compacted !== undefined)
      rounds += entry.compacted.rounds;
  }
  return rounds;
}

/** True when the transcript should be compacted before the next model call. */
export function compactionDue(
  transcript: readonly TranscriptEntry[],
  lastInputTokens: number | undefined,
  contextTokens: number | undefined,
): boolean {
  if (
    lastInputTokens !== undefined &&
    contextTokens !== undefined &&
    lastInputTokens > contextTokens * CONTEXT_SHARE
  ) {
    return true;
  }
  return (
    transcript.length > MAX_TRANSCRIPT_ENTRIES || transcriptChars(transcript) > MAX_TRANSCRIPT_CHARS
  );
}

export function transcriptChars(transcript: readonly TranscriptEntry[]): number {
  return JSON.stringify(transcript).length;
}

/** About four characters a token: an estimate for the event, not a tokenizer's count. */
export function estimatedTokens(transcript: readonly TranscriptEntry[]): number {
  return Math.ceil(transcriptChars(transcript) / 4);
}

/** Which entries a compaction replaces: `[from, to)`; the rest stays as it is. */
export interface CompactionRange {
  from: number;
  to: number;
  /** Rounds the replaced entries stand for. */
  rounds: number;
}

/**
 * The entries to replace so that the last `keep` rounds stay, or null when there is nothing
 * older to replace. The opening task (a first user entry that is no summary) always stays. The
 * range ends right before an assistant answer, so it never separates a tool call from its result:
 * every result follows its call's answer, before the next answer.
 */
export function compactionRange(
  transcript: readonly TranscriptEntry[],
  keep = KEPT_ROUNDS,
): CompactionRange | null {
  const first = transcript[0];
  const from = first?.role === 'user' && first.compacted === undefined ? 1 : 0;
  const answers: number[] = [];
  for (let index = from; index < transcript.length; index++) {
    if (transcript[index]!.role === 'assistant') answers.push(index);
  }
  if (answers.length <= keep) return null;
  const to = answers[answers.length - keep] ?? transcript.length;
  const rounds = roundsIn(transcript.slice(from, to));
  return rounds === 0 ? null : { from, to, rounds };
}

/** The summary entry for replaced rounds. */
export function summaryEntry(rounds: number, summary: string): CompactionEntry {
  return {
    role: 'user',
    content: `[deputy compacted the ${rounds} earlier rounds of this conversation; your own summary of them follows]\n${summary}`,
    compacted: { rounds, by: 'summary' },
  };
}

/** The entry that replaces rounds dropped without a summary (no model call could write one). */
export function truncationEntry(rounds: number, entries: number, reason: string): CompactionEntry {
  return {
    role: 'user',
    content:
      `[deputy dropped the ${rounds} earlier rounds of this conversation (${entries} entries) to ` +
      `stay within your context; no summary could be written (${reason}). Their tool calls ran ` +
      'and are not run again: read again anything you still need.]',
    compacted: { rounds, by: 'truncation' },
  };
}

/** True when a request is a summary request (its last entry is the instruction). */
export function isSummaryRequest(transcript: readonly TranscriptEntry[]): boolean {
  const last = transcript[transcript.length - 1];
  return last?.role === 'user' && last.content === SUMMARY_INSTRUCTION;
}

/** The transcript a summary request sends: the entries to summarize, then the instruction. */
export function summaryRequest(entries: readonly TranscriptEntry[]): TranscriptEntry[] {
  return [...entries, { role: 'user', content: SUMMARY_INSTRUCTION }];
}
