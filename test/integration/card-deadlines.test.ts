/**
 * Card deadlines and reminders, on the real dev server: a card whose `cardTimeout`
 * passes while no worker runs (a worker process SIGKILLed) is denied by the deadline as soon as
 * a worker is back, once, and the model is told; a reminder fires once before the deadline; a
 * delegation's own `cardTimeout` wins over the definition's; a bad one is refused at the start.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApprovalCard,
  DelegationEvent,
  DelegationState,
} from '../../src/shared/delegation.js';
import {
  decideCardUpdate,
  eventsQuery,
  stateQuery,
} from '../../src/shared/workflow-contract/messages.js';
import { apiOf, timedRequest } from './support/app-request.js';
import {
  createHarness,
  eventually,
  recordHistory,
  workflowBundle,
  type Harness,
} from './support/harness.js';
import { scribeAgent } from './support/scribe-agent.js';
import { killWorker, spawnWorker } from './support/worker-process.js';

const writer = (name: string, frontmatter: string) => ({
  [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: writes a note, after approval\nmodel: scripted:scripts/${name}.yaml\ntools: [write]\napprovalMode: confirm\n${frontmatter}---\nWrite.\n`,
  [`scripts/${name}.yaml`]: `turns:
  - text: Writing the note.
    toolCalls: [{ name: write, arguments: { path: ${name}.txt, content: "noted\\n" } }]
  - text: "Told: \${lastToolResult}"
`,
});

const files = {
  ...scribeAgent,
  ...writer('hasty', 'cardTimeout: 2s\ncardReminder: 1s\n'),
  ...writer('patient', 'cardTimeout: 8s\ncardReminder: 7s\n'),
};

let harness: Harness;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  harness = await createHarness(files, { startWorker: false });
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await harness?.close();
});

function pendingCard(state: DelegationState): ApprovalCard | undefined {
  return state.pendingCards[0];
}

/** A worker process, and `hasty` started over the API (`?wait=true`) and parked on its card. */
async function parkHasty(app: ReturnType<typeof apiOf>) {
  const worker = await spawnWorker(harness, cleanups);
  const started = await timedRequest(app, 'POST', '/delegations?wait=true', {
    agent: 'hasty',
    task: 'Write the note',
    session: `dl-${randomUUID().slice(0, 8)}`,
  });
  expect(started.status).toBe(202);
  return { worker, started, card: pendingCard(started.body.state as DelegationState)! };
}

describe('card deadlines', () => {
  it('denies a card whose deadline passed while the worker was dead, once a worker is back', async () => {
    const app = apiOf(harness);
    const { worker: first, started, card } = await parkHasty(app);
    // The card says when it is settled, and when its reminder comes (1 s before).
    const opened = Date.parse(card.openedAt);
    expect(Date.parse(card.deadline!) - opened).toBe(2_000);
    expect(Date.parse(card.deadline!) - Date.parse(card.remindAt!)).toBe(1_000);
    const workflowId = started.body.workflowId as string;
    const handle = harness.client.workflow.getHandle(workflowId);
    // Ops see the earliest deadline in the memo, without a worker.
    const memo = (await handle.describe()).memo as Record<string, unknown>;
    expect(memo.earliestCardDeadline).toBe(card.deadline);

    await killWorker(first);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // Nobody ran the timer's workflow task yet: the card is still pending, as visibility says.
    const waiting = await timedRequest(app, 'GET', `/delegations/${started.body.delegationId}`);
    expect(waiting.body.pendingCards).toMatchObject([{ id: card.id, deadline: card.deadline }]);

    const second = await spawnWorker(harness, cleanups);
    const result = await handle.result();
    expect(result).toMatchObject({
      status: 'completed',
      deniedCalls: [{ tool: 'write', by: 'deadline' }],
    });
    expect(result.text).toMatch(/^Told: .*no decision within 2s/);
    expect(existsSync(join(harness.workspace, 'hasty.txt'))).toBe(false);

    const state = await handle.query(stateQuery);
    expect(state.decidedCards).toMatchObject([
      {
        id: card.id,
        state: { status: 'denied', decidedBy: 'deadline', expired: true },
      },
    ]);
    const decided = state.decidedCards[0]!.state as { decidedAt: string };
    expect(Date.parse(decided.decidedAt)).toBeGreaterThanOrEqual(Date.parse(card.deadline!));
    const events: DelegationEvent[] = await handle.query(eventsQuery, 0);
    // Settled once; no reminder for a card that was already past its deadline.
    expect(events.filter((event) => event.type === 'card-decided')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'card-reminder')).toHaveLength(0);
    expect(((await handle.describe()).memo as Record<string, unknown>).earliestCardDeadline).toBe(
      undefined,
    );

    const history = await handle.fetchHistory();
    const fired = (history.events ?? []).filter((event) => event.timerFiredEventAttributes);
    expect(fired.length).toBeGreaterThanOrEqual(1);
    await Worker.runReplayHistory(
      { workflowBundle: await workflowBundle(), replayName: 'card-expired' },
      history,
    );
    await recordHistory(handle, 'card-expired');
    await killWorker(second);
  });

  it('applies a decision recorded while no worker ran before a deadline that passed meanwhile', async () => {
    const app = apiOf(harness);
    const { worker: first, started, card } = await parkHasty(app);
    await killWorker(first);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const decided = await timedRequest(app, 'POST', `/cards/${card.id}`, {
      decision: 'approve',
      reason: 'just in time',
    });
    expect(decided).toMatchObject({ status: 202, body: { status: 'recorded' } });

    const second = await spawnWorker(harness, cleanups);
    const handle = harness.client.workflow.getHandle(started.body.workflowId as string);
    expect(await handle.result()).toMatchObject({ status: 'completed', deniedCalls: [] });
    const [settled] = (await handle.query(stateQuery)).decidedCards;
    expect(settled!.state).toMatchObject({ status: 'approved', reason: 'just in time' });
    expect(settled!.state).not.toHaveProperty('expired');
    await killWorker(second);
  });

  describe('with a worker running', () => {
    beforeAll(() => harness.startWorker());
    afterAll(() => harness.stopWorker());

    it('sends one reminder before the deadline; a decision in time wins', async () => {
      const handle = await harness.start('patient', 'Write the note');
      const reminded = await eventually(async () => {
        const events: DelegationEvent[] = await handle.query(eventsQuery, 0);
        return events.find((event) => event.type === 'card-reminder');
      }, 'the reminder');
      if (reminded.type !== 'card-reminder') throw new Error('not a reminder');
      expect(reminded.card.state).toEqual({ status: 'pending' });
      expect(Date.parse(reminded.at)).toBeGreaterThanOrEqual(Date.parse(reminded.card.remindAt!));
      const [card] = (await handle.query(stateQuery)).pendingCards;
      expect(card!.remindedAt).toBe(reminded.card.remindedAt);

      await handle.executeUpdate(decideCardUpdate, {
        args: [{ cardId: card!.id, decision: 'approve' }],
      });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', deniedCalls: [] });
      expect(existsSync(join(harness.workspace, 'patient.txt'))).toBe(true);
      const events: DelegationEvent[] = await handle.query(eventsQuery, 0);
      expect(events.filter((event) => event.type === 'card-reminder')).toHaveLength(1);
      const state = await handle.query(stateQuery);
      expect(state.decidedCards[0]!.state).toMatchObject({ status: 'approved' });
      expect(state.decidedCards[0]!.state).not.toHaveProperty('expired');
    }, 30_000);

    it("takes the delegation's own cardTimeout over the definition's, and refuses a bad one", async () => {
      // scribe declares no deadline: without the start's, its card would wait forever.
      const handle = await harness.start('scribe', 'Write the note', { cardTimeout: '1s' });
      const result = await handle.result();
      expect(result.deniedCalls).toMatchObject([{ by: 'deadline' }]);
      const [card] = (await handle.query(stateQuery)).decidedCards;
      expect(Date.parse(card!.deadline!) - Date.parse(card!.openedAt)).toBe(1_000);
      expect(card!.remindAt).toBeUndefined();

      await expect(harness.start('scribe', 'Write', { cardTimeout: 'soon' })).rejects.toThrow(
        /cardTimeout: 'soon' is not a duration/,
      );
      const refused = await timedRequest(apiOf(harness), 'POST', '/delegations', {
        agent: 'scribe',
        task: 'Write',
        cardTimeout: '0s',
      });
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toMatch(/cardTimeout.*zero/);
    }, 30_000);
  });
});
