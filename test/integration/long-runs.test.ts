/**
 * Bounded history for long runs, on the real dev server: a scripted delegation of 500
 * read rounds whose model claims a small context window compacts its transcript again and again
 * (older rounds replaced by the model's summary, a `compacted` event each time), continues-as-new
 * under the history limit, keeps every model call's transcript bounded, and answers. A fork from
 * a round after a compaction and a resume after the end both start from the compacted transcript
 * and count their rounds through the summary. Shorter runs: the script's summary, the truncation
 * when the summary request gets no text, and a message sent to a compacted delegation parked on a
 * card, delivered whole after the compaction.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallModelInput } from '../../src/shared/workflow-contract/activities.js';
import { KEPT_ROUNDS, roundsIn } from '../../src/shared/compaction.js';
import type { DelegationEvent, DelegationResult } from '../../src/shared/delegation.js';
import { eventsQuery, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, recordHistory, type Harness } from './support/harness.js';

const ROUNDS = 500;
/** The scripted model's claimed window: about 4 chars a token, ~60 tokens a round: ~50 rounds. */
const CONTEXT_TOKENS = 4_000;
const LINE = `${'lorem ipsum '.repeat(16)}\n`;

const files: Record<string, string> = {
  'notes.txt': LINE,
  'short.txt': 'lorem ipsum dolor\n',
  '.subagents/agents/long.md': `---\nname: long\ndescription: reads a line a round\nmodel: scripted:scripts/long.yaml\napprovalMode: confirm\ntools: [read]\nmaxTurns: ${ROUNDS + 5}\n---\nRead.\n`,
  // No `summary:` entry: the scripted model's deterministic default summary answers.
  'scripts/long.yaml': `contextTokens: ${CONTEXT_TOKENS}\nturns:\n${Array.from(
    { length: ROUNDS },
    (_, index) =>
      `  - text: lap ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: notes.txt, limit: 1 } }]`,
  ).join('\n')}\n  - text: finished ${ROUNDS} laps\n`,
};

/** A short run whose model claims a tiny window: it compacts after a dozen rounds or so. */
function shortAgent(name: string, summary: string | null): Record<string, string> {
  return {
    [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: reads a line a round\nmodel: scripted:scripts/${name}.yaml\napprovalMode: confirm\ntools: [read]\nmaxTurns: 30\n---\nRead.\n`,
    [`scripts/${name}.yaml`]: `contextTokens: 480\n${summary === null ? '' : `summary: ${JSON.stringify(summary)}\n`}turns:\n${Array.from(
      { length: 20 },
      (_, index) =>
        `  - text: lap ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: short.txt, limit: 1 } }]`,
    ).join('\n')}\n  - text: finished after \${lastToolResult}\n`,
  };
}

Object.assign(
  files,
  shortAgent('brief', 'I read short.txt ${rounds} times.'),
  shortAgent('mute', ''),
);

// Reads until it has compacted, then asks before a bash call (a card) and says what it heard.
Object.assign(files, {
  '.subagents/agents/chatty.md':
    '---\nname: chatty\ndescription: reads, asks, repeats\nmodel: scripted:scripts/chatty.yaml\ntools: [read, bash]\n---\nWork.\n',
  'scripts/chatty.yaml': `contextTokens: 480\nturns:\n${Array.from(
    { length: 15 },
    (_, index) =>
      `  - text: lap ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: short.txt, limit: 1 } }]`,
  ).join(
    '\n',
  )}\n  - text: Asking.\n    toolCalls: [{ name: bash, arguments: { command: "echo hi >> chatty.log" } }]\n  - text: "Heard: \${lastUserMessage}"\n`,
});

let harness: Harness;
beforeAll(async () => {
  harness = await createHarness(files);
}, 60_000);
afterAll(() => harness?.close());

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

/** Every run's history of a workflow id, oldest first. */
async function histories(workflowId: string): Promise<{ status: string; history: History }[]> {
  const runs: { status: string; history: History; start: number }[] = [];
  for await (const run of harness.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await harness.client.workflow.getHandle(workflowId, run.runId).fetchHistory();
    runs.push({ status: run.status.name, history, start: run.startTime.getTime() });
  }
  return runs.sort((a, b) => a.start - b.start);
}

function scheduled<T>(history: History, type: string): T[] {
  return (history.events ?? []).flatMap((event) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (attributes?.activityType?.name !== type) return [];
    const data = attributes.input?.payloads?.[0]?.data ?? new Uint8Array();
    return [JSON.parse(Buffer.from(data).toString('utf8')) as T];
  });
}

function compactions(events: DelegationEvent[]) {
  return events.filter(
    (event): event is Extract<DelegationEvent, { type: 'compacted' }> => event.type === 'compacted',
  );
}

describe('compaction of a short run', () => {
  it("replaces older rounds by the script's summary, keeping the last rounds", async () => {
    const handle = await harness.start('brief', 'Read a line, 20 times');
    expect(await handle.result()).toMatchObject({ status: 'completed', roundsUsed: 21 });
    const [first] = compactions(await handle.query(eventsQuery, 0));
    expect(first).toMatchObject({ by: 'summary', entriesReplaced: 2 * first!.roundsReplaced });
    expect(first!.text).toContain(`I read short.txt ${first!.roundsReplaced} times.`);
    expect(first!.round - first!.roundsReplaced).toBe(KEPT_ROUNDS);
    await recordHistory(handle, 'compacted-summary');
  }, 60_000);

  it('drops them with a note when no summary can be written (an empty answer)', async () => {
    const handle = await harness.start('mute', 'Read a line, 20 times');
    expect(await handle.result()).toMatchObject({ status: 'completed', roundsUsed: 21 });
    const events = compactions(await handle.query(eventsQuery, 0));
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.by === 'truncation')).toBe(true);
    expect(events[0]!.text).toMatch(
      /dropped the \d+ earlier rounds .* no summary could be written \(the model answered the summary request with no text\)/,
    );
    // The empty answer is not retried: one summary attempt per compaction.
    const { events: history } = await handle.fetchHistory();
    const failed = (history ?? []).filter((event) => event.activityTaskFailedEventAttributes);
    expect(failed).toHaveLength(events.length);
    const state = await handle.query(stateQuery);
    expect(state.transcriptSummary[1]).toMatch(/^user: \[deputy dropped the/);
    await recordHistory(handle, 'compacted-truncation');
  }, 60_000);
});

describe('steering across a compaction', () => {
  it('a message sent to a compacted delegation is delivered whole after it, once', async () => {
    const handle = await harness.start('chatty', 'Read, then ask');
    const parked = await eventually(
      async () => {
        const state = await handle.query(stateQuery);
        return state.pendingCards.length === 1 ? state : undefined;
      },
      'a pending card',
      60_000,
    );
    const id = handle.workflowId.split('/').pop()!;
    await harness.delegations.send(id, { text: 'the note', from: null });
    await harness.delegations.decide(parked.pendingCards[0]!.id, { decision: 'approve' });
    expect(await handle.result()).toMatchObject({ status: 'completed', text: 'Heard: the note' });

    const events = await handle.query(eventsQuery, 0);
    const compacted = compactions(events);
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0]!.round).toBeLessThan(16);
    const state = await handle.query(stateQuery);
    expect(state.messages).toMatchObject([{ seq: 1, deliveredBeforeRound: 17 }]);
    // Delivered after the last compaction, word for word, once.
    const lines = state.transcriptSummary;
    expect(lines.filter((line) => line === 'user: the note')).toHaveLength(1);
    const lastCompaction = lines.reduce(
      (found, line, index) => (line.startsWith('user: [deputy compacted') ? index : found),
      -1,
    );
    expect(lastCompaction).toBeGreaterThan(0);
    expect(lines.indexOf('user: the note')).toBeGreaterThan(lastCompaction);
  }, 60_000);
});

describe('a 500-round delegation', () => {
  it('compacts, continues-as-new, stays bounded, answers; fork and resume work across it', async () => {
    const started = Date.now();
    const handle = await harness.start('long', 'Read a line, 500 times');
    const result = (await handle.result()) as DelegationResult;
    const runTime = Date.now() - started;
    expect(result).toMatchObject({
      status: 'completed',
      text: `finished ${ROUNDS} laps`,
      roundsUsed: ROUNDS + 1,
    });

    const runs = await histories(handle.workflowId);
    expect(runs.map((run) => run.status)).toContain('CONTINUED_AS_NEW');
    const calls = runs.flatMap((run) => scheduled<CallModelInput>(run.history, 'callModel'));
    const summaries = runs.flatMap((run) =>
      scheduled<CallModelInput>(run.history, 'summarizeRounds'),
    );
    expect(calls).toHaveLength(ROUNDS + 1);
    expect(summaries.length).toBeGreaterThanOrEqual(3);
    // Bounded: no model call was sent more than the task, a summary and about 60 rounds.
    const longest = Math.max(...calls.map((call) => call.transcript.length));
    expect(longest).toBeLessThan(2 + 2 * 70);
    // Every call counts its rounds through the summary: round k is sent k - 1 rounds.
    expect(calls.map((call) => roundsIn(call.transcript))).toEqual(
      Array.from({ length: ROUNDS + 1 }, (_, index) => index),
    );

    const events = await handle.query(eventsQuery, 0);
    const compacted = events.filter(
      (event): event is Extract<DelegationEvent, { type: 'compacted' }> =>
        event.type === 'compacted',
    );
    expect(compacted.length).toBeGreaterThan(0);
    const last = compacted.at(-1)!;
    expect(last).toMatchObject({ by: 'summary', contextTokens: CONTEXT_TOKENS });
    expect(last.lastInputTokens).toBeGreaterThan(CONTEXT_TOKENS * 0.75);
    expect(last.tokensAfter).toBeLessThan(last.tokensBefore);
    expect(last.text).toMatch(/\[scripted model\] summary of \d+ rounds; tool calls: read x\d+/);
    const state = await handle.query(stateQuery);
    expect(state.transcriptSummary.length).toBeLessThan(2 + 2 * 70);
    expect(state.transcriptSummary[0]).toBe('user: Read a line, 500 times');
    expect(state.usage?.modelCalls).toBe(ROUNDS + 1 + summaries.length);

    // A fork from two rounds after the last compaction: sent the summary and the kept rounds.
    const id = handle.workflowId.split('/').pop()!;
    const fromRound = last.round + 2;
    const fork = await harness.delegations.fork(id, {
      fromRound,
      caller: { id: null, roles: [] },
    });
    const forked = harness.client.workflow.getHandle(fork.workflowId);
    expect(await forked.result()).toMatchObject({
      status: 'completed',
      text: `finished ${ROUNDS} laps`,
      roundsUsed: ROUNDS + 1,
    });
    const [forkFirst] = scheduled<CallModelInput>(await forked.fetchHistory(), 'callModel');
    expect(roundsIn(forkFirst!.transcript)).toBe(fromRound);
    expect(forkFirst!.transcript[1]).toMatchObject({ role: 'user', compacted: { by: 'summary' } });
    expect(forkFirst!.transcript.filter((entry) => entry.role === 'assistant')).toHaveLength(
      KEPT_ROUNDS + 2,
    );

    // A resume after the end: its whole, compacted transcript, the answer and the message.
    const resume = await harness.delegations.resume(id, {
      text: 'one more lap',
      caller: { id: null, roles: [] },
    });
    const resumed = harness.client.workflow.getHandle(resume.workflowId);
    expect(await resumed.result()).toMatchObject({ status: 'completed' });
    const [resumeFirst] = scheduled<CallModelInput>(await resumed.fetchHistory(), 'callModel');
    expect(roundsIn(resumeFirst!.transcript)).toBe(ROUNDS + 1);
    expect(resumeFirst!.transcript.at(-1)).toEqual({ role: 'user', content: 'one more lap' });
    expect(resumeFirst!.transcript.some((entry) => entry.role === 'user' && entry.compacted)).toBe(
      true,
    );
    console.log(
      `500 rounds in ${runTime} ms; ${summaries.length} compactions, ${runs.length} runs`,
    );
  }, 240_000);
});
