/**
 * Sessions survive what delegations survive: a worker SIGKILLed while a child is
 * parked on a card, and a 300-round main agent that continues-as-new with a background child
 * pending. Every model is scripted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DelegationEvent } from '../../src/shared/delegation.js';
import { useCleanups } from '../support/cleanups.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import {
  FOREGROUND_THEN_BACKGROUND,
  leadAgent,
  readerAgent,
  writerAgent,
} from './support/session-agents.js';
import { killWorker, spawnWorker } from './support/worker-process.js';

const cleanups = useCleanups();

async function replyOf(harness: Harness, sessionId: string, timeoutMs = 60_000) {
  const reply = await eventually(
    async () =>
      (await harness.sessions.events(sessionId, 0)).find(
        (event): event is Extract<DelegationEvent, { type: 'reply' }> => event.type === 'reply',
      ),
    'the reply',
    timeoutMs,
  );
  return reply;
}

async function childCard(harness: Harness, sessionId: string) {
  return eventually(
    async () => (await harness.sessions.cards(sessionId))[0],
    'a child card',
    60_000,
  );
}

describe('session durability', () => {
  it('a worker killed while a child is parked: a new worker finishes the child and the session', async () => {
    const harness = await createHarness(
      { ...readerAgent, ...writerAgent, ...leadAgent(FOREGROUND_THEN_BACKGROUND) },
      { startWorker: false },
    );
    cleanups.push(() => harness.close());
    const first = await spawnWorker(harness, cleanups);
    const { sessionId } = await harness.sessions.start({
      agent: 'lead',
      message: 'Do the work.',
      caller: { id: null, roles: [] },
      options: {},
    });
    const card = await childCard(harness, sessionId);
    expect(card.agent).toBe('writer');
    await killWorker(first);

    await spawnWorker(harness, cleanups);
    await harness.delegations.decide(card.id, { decision: 'approve' });
    const reply = await replyOf(harness, sessionId);
    expect(reply.text).toContain('Wrote out.txt.');
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('written by writer\n');
    const state = await harness.sessions.get(sessionId);
    expect(state.tasks.map((task) => task.status)).toEqual(['completed', 'completed']);
    await harness.sessions.stop(sessionId);
  }, 120_000);

  it('a 300-round main agent continues-as-new with a background child pending and loses nothing', async () => {
    const rounds = 300;
    const laps = Array.from(
      { length: rounds - 2 },
      (_, lap) =>
        `  - text: Lap ${lap + 1}.\n    toolCalls: [{ name: read, arguments: { path: README.md } }]\n`,
    ).join('');
    const turns =
      `  - text: Starting the writer.\n    toolCalls: [{ name: Task, arguments: { description: write out, prompt: Write out.txt, subagent_type: writer, run_in_background: true } }]\n` +
      laps +
      `  - text: Waiting for the writer.\n    toolCalls: [{ name: TaskOutput, arguments: { task_id: "\${lastTaskId}", timeout: 600000 } }]\n` +
      `  - text: "Marathon done. \${lastToolResult}"\n`;
    const harness = await createHarness({
      ...readerAgent,
      ...writerAgent,
      ...leadAgent(turns, rounds + 10),
    });
    cleanups.push(() => harness.close());
    const { sessionId, workflowId } = await harness.sessions.start({
      agent: 'lead',
      message: 'Run every lap.',
      caller: { id: 'runner', roles: ['admin'] },
      options: {},
    });
    const card = await childCard(harness, sessionId);
    const firstRun = (await harness.client.workflow.getHandle(workflowId).describe()).runId;
    // Decide only after the session handed over to a new run: the child reports to that run.
    await eventually(
      async () => {
        const run = (await harness.client.workflow.getHandle(workflowId).describe()).runId;
        return run !== firstRun ? run : undefined;
      },
      'the session continued as new',
      120_000,
      250,
    );
    await harness.delegations.decide(card.id, { decision: 'approve' });

    const reply = await replyOf(harness, sessionId, 120_000);
    expect(reply.text).toMatch(/^Marathon done\. \[task d-[a-z0-9]+ \(writer\) completed/);
    expect(reply.text).toContain('Wrote out.txt.');
    expect(reply.roundsUsed).toBe(rounds + 1);
    const state = await harness.sessions.get(sessionId);
    expect(state.transcriptSummary[0]).toBe('user: Run every lap.');
    // The message, then every round's answer and tool result, across the hand-overs.
    expect(state.transcriptSummary).toHaveLength(1 + rounds * 2 + 1);
    expect(state.tasks).toMatchObject([{ agent: 'writer', status: 'completed', background: true }]);
    // The approval, given after the hand-over, reached the child: the write ran, once.
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('written by writer\n');
    const writer = await harness.delegations.get(card.delegationId);
    expect(writer.decidedCards.map((decided) => decided.state.status)).toEqual(['approved']);
    expect((await harness.client.workflow.getHandle(workflowId).describe()).memo).toMatchObject({
      startedBy: 'runner',
    });
    await harness.sessions.stop(sessionId);
  }, 240_000);
});
