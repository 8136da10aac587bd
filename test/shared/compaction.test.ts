/**
 * The splitting rule of compaction: what a compaction replaces never separates a tool
 * call from its result, keeps the task and the last rounds, and counts rounds through summaries.
 */
import { describe, expect, it } from 'vitest';
import {
  compactionDue,
  compactionRange,
  CONTEXT_SHARE,
  MAX_TRANSCRIPT_ENTRIES,
  roundsIn,
  summaryEntry,
  truncationEntry,
} from '../../src/shared/compaction.js';
import type { TranscriptEntry } from '../../src/shared/model-contract.js';
import { defaultSummary } from '../../src/models/scripted-model.js';

/** A round: an answer with `calls` tool calls, then their results; 0 calls: a plain answer. */
function round(n: number, calls: number): TranscriptEntry[] {
  const ids = Array.from({ length: calls }, (_, index) => `call_${n}_${index}`);
  return [
    {
      role: 'assistant',
      content: `round ${n}`,
      toolCalls: ids.map((id) => ({ id, name: 'read', arguments: { path: 'a.txt' } })),
    },
    ...ids.map((id): TranscriptEntry => ({
      role: 'tool',
      toolCallId: id,
      toolName: 'read',
      content: `result of ${id}`,
      isError: false,
    })),
  ];
}

const task: TranscriptEntry = { role: 'user', content: 'the task' };

/** Every tool result follows the answer that called it, before the next answer. */
function pairsIntact(transcript: TranscriptEntry[]): boolean {
  let open = new Set<string>();
  for (const entry of transcript) {
    if (entry.role === 'assistant') open = new Set(entry.toolCalls.map((call) => call.id));
    else if (entry.role === 'tool' && !open.delete(entry.toolCallId)) return false;
  }
  return true;
}

function compact(transcript: TranscriptEntry[], keep: number): TranscriptEntry[] {
  const range = compactionRange(transcript, keep);
  if (range === null) return transcript;
  const copy = [...transcript];
  copy.splice(range.from, range.to - range.from, summaryEntry(range.rounds, 'summary'));
  return copy;
}

describe('compactionRange', () => {
  it('never separates a call from its result, whatever the rounds and the rounds kept', () => {
    // Rounds of 0 to 3 calls, with a steering message between some of them.
    const transcript: TranscriptEntry[] = [task];
    for (let n = 1; n <= 40; n++) {
      transcript.push(...round(n, n % 4));
      if (n % 7 === 0) transcript.push({ role: 'user', content: `message ${n}` });
    }
    expect(pairsIntact(transcript)).toBe(true);
    for (let keep = 1; keep < 40; keep++) {
      const range = compactionRange(transcript, keep)!;
      expect(transcript[range.to]!.role).toBe('assistant');
      const compacted = compact(transcript, keep);
      expect(pairsIntact(compacted)).toBe(true);
      expect(compacted[0]).toEqual(task);
      expect(roundsIn(compacted)).toBe(40);
      expect(compacted.filter((entry) => entry.role === 'assistant')).toHaveLength(keep);
    }
  });

  it('a broken pairing would be caught: the check itself fails on a split', () => {
    const transcript = [task, ...round(1, 2), ...round(2, 1)];
    // Cut between round 1's answer and its results: its results would lose their call.
    expect(pairsIntact([task, ...transcript.slice(2)])).toBe(false);
  });

  it('replaces nothing with no more rounds than it keeps', () => {
    const transcript = [task, ...round(1, 1), ...round(2, 1)];
    expect(compactionRange(transcript, 2)).toBeNull();
    expect(compactionRange(transcript, 1)).toEqual({ from: 1, to: 3, rounds: 1 });
  });

  it('folds an earlier summary into the next one and counts its rounds', () => {
    let transcript: TranscriptEntry[] = [task];
    for (let n = 1; n <= 10; n++) transcript.push(...round(n, 1));
    transcript = compact(transcript, 3);
    expect(transcript[1]).toMatchObject({ compacted: { rounds: 7, by: 'summary' } });
    for (let n = 11; n <= 15; n++) transcript.push(...round(n, 1));
    const range = compactionRange(transcript, 3)!;
    // From the old summary (index 1) on: its 7 rounds and rounds 8-12.
    expect(range).toMatchObject({ from: 1, rounds: 12 });
    transcript = compact(transcript, 3);
    expect(transcript.filter((entry) => entry.role === 'user')).toHaveLength(2);
    expect(roundsIn(transcript)).toBe(15);
  });

  it('a transcript that starts with a summary has no task to keep', () => {
    const transcript = [summaryEntry(4, 'before'), ...round(5, 1), ...round(6, 1)];
    expect(compactionRange(transcript, 1)).toEqual({ from: 0, to: 3, rounds: 5 });
  });
});

describe('compactionDue', () => {
  it('past the share of the context window, or past the entry bound', () => {
    const small = [task, ...round(1, 1)];
    expect(compactionDue(small, 1000 * CONTEXT_SHARE + 1, 1000)).toBe(true);
    expect(compactionDue(small, 1000 * CONTEXT_SHARE, 1000)).toBe(false);
    expect(compactionDue(small, 10_000, undefined)).toBe(false);
    const long: TranscriptEntry[] = [task];
    while (long.length <= MAX_TRANSCRIPT_ENTRIES) long.push(...round(long.length, 1));
    expect(compactionDue(long, undefined, undefined)).toBe(true);
  });
});

describe('entries', () => {
  it('say what they replaced; the truncation says how many rounds were dropped and why', () => {
    expect(truncationEntry(12, 30, 'model down').content).toMatch(
      /dropped the 12 earlier rounds .*\(30 entries\).*\(model down\)/,
    );
    expect(summaryEntry(3, 'did things').content).toMatch(
      /compacted the 3 earlier rounds[^]*did things$/,
    );
  });

  it("the scripted model's default summary names rounds and tool calls", () => {
    expect(defaultSummary([task, ...round(1, 2), ...round(2, 1), summaryEntry(5, 'x')])).toBe(
      '[scripted model] summary of 7 rounds; tool calls: read x3',
    );
  });
});
