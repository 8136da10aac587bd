/**
 * Card decisions while no worker runs, on the real dev server with real
 * worker processes: `POST /delegations?wait=true` answers once the agent parks, with its pending
 * card; after the worker is SIGKILLed a decision answers within seconds as 202 `recorded`;
 * a second, different decision on the same card is refused (409) even when both are sent at
 * once; and when a worker runs again the recorded decision, and only it, applies. Also when the
 * server holds both signals back behind a workflow task in progress (one a dying worker took).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import proto from '@temporalio/proto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { RPC_TIMEOUT_MS } from '../../src/temporal/calls/rpc.js';
import { createHarness, eventually } from './support/harness.js';
import { killWorker, spawnWorker } from './support/worker-process.js';
import { timedRequest } from './support/app-request.js';
import { useCleanups } from '../support/cleanups.js';
import { budgetFrom, type BudgetRule } from '../support/calibration.js';
import { scribeAgent } from './support/scribe-agent.js';

/** How long the facade waits for a worker to apply a decision before it records it. */
const DECISION_WAIT_MS = 3_000;
/**
 * The product answers within DECISION_WAIT_MS (a worker that was just killed still looks alive,
 * so the full wait runs) plus a few reads, each bounded by RPC_TIMEOUT_MS; before, such a
 * decision waited on an update for minutes. The reads' work is measured on the same routes
 * while the worker still runs: 10 of those, or 2 s, on top of the deliberate waits.
 */
const DECISION: BudgetRule = {
  factor: 10,
  floorMs: 2_000,
  plusMs: DECISION_WAIT_MS + 2 * RPC_TIMEOUT_MS,
};

const cleanups = useCleanups();

describe('card decisions without a worker', () => {
  it('records a decision while the worker is dead, refuses a second one, and applies the first when a worker is back', async () => {
    const harness = await createHarness(scribeAgent, { startWorker: false });
    cleanups.push(() => harness.close());
    const delegations = createDelegations(harness.client, {
      namespace: harness.config.temporal.namespace,
      taskQueue: harness.taskQueue,
      decisionWaitMs: DECISION_WAIT_MS,
    });
    const app = createApp({ delegations, config: harness.config, auth: createAuth({}) });
    const first = await spawnWorker(harness, cleanups);
    const session = `nw-${randomUUID().slice(0, 8)}`;

    // wait=true comes back when the agent parks, with the card to decide, not when it finishes.
    const started = await timedRequest(app, 'POST', '/delegations?wait=true', {
      agent: 'scribe',
      task: 'Write the note',
      session,
    });
    expect(started).toMatchObject({
      status: 202,
      body: { status: 'parked', result: null, state: { status: 'parked' } },
    });
    const delegationId = started.body.delegationId as string;
    const [card] = (started.body.state as DelegationState).pendingCards;
    expect(card).toMatchObject({
      delegationId,
      tool: 'write',
      arguments: { path: 'note.txt' },
      state: { status: 'pending' },
    });

    // The baseline, while the worker runs: the reads a decision makes, answered.
    let healthyMs = 0;
    for (let round = 0; round < 3; round += 1) {
      for (const path of [`/delegations/${delegationId}`, `/sessions/${session}/cards`]) {
        const read = await timedRequest(app, 'GET', path);
        expect(read.status, path).toBe(200);
        healthyMs = Math.max(healthyMs, read.ms);
      }
    }
    const budget = budgetFrom('the slowest read with the worker up', healthyMs, DECISION);

    await killWorker(first);

    // Two people decide at once. Exactly one decision is recorded; the other is told now.
    const [approve, deny] = await Promise.all([
      timedRequest(app, 'POST', `/cards/${card!.id}`, { decision: 'approve', reason: 'go' }),
      timedRequest(app, 'POST', `/cards/${card!.id}`, { decision: 'deny', reason: 'stop' }),
    ]);
    budget.expectWithin(approve.ms, 'the approval');
    budget.expectWithin(deny.ms, 'the denial');
    expect([approve.status, deny.status].sort()).toEqual([202, 409]);
    const [winner, loser] = approve.status === 202 ? [approve, deny] : [deny, approve];
    const won = winner === approve ? 'approve' : 'deny';
    expect(winner.body).toMatchObject({
      status: 'recorded',
      card: { id: card!.id, state: { status: 'pending' } },
      decision: { cardId: card!.id, decision: won },
      links: { delegation: `/delegations/${delegationId}` },
    });
    expect(winner.body.message).toMatch(/applies when a worker/);
    expect(loser.body).toMatchObject({ error: 'conflict' });
    // Refused before its signal (the other was waiting) or after it (the other landed first).
    expect(loser.body.message).toMatch(
      new RegExp(`(waiting for a worker|another decision on card \\S+) \\(${won}\\)`),
    );

    // Still refused after the race, and nothing has run: the card is still pending.
    const again = await timedRequest(app, 'POST', `/cards/${card!.id}`, { decision: 'approve' });
    expect(again).toMatchObject({ status: 409, body: { error: 'conflict' } });
    budget.expectWithin(again.ms, 'the third decision');
    console.log(
      `no worker, decision answer times: ${won} (202) ${winner.ms} ms, the other (409) ${loser.ms} ms, a third (409) ${again.ms} ms`,
    );
    expect(existsSync(join(harness.workspace, 'note.txt'))).toBe(false);
    const listed = await timedRequest(app, 'GET', `/sessions/${session}/cards`);
    expect((listed.body.cards as ApprovalCard[]).map((pending) => pending.id)).toEqual([card!.id]);
    // Its state is still answered, rebuilt from visibility, and says it is partial and why: an
    // empty list of decided cards then means "not known", not "none".
    const rebuilt = await timedRequest(app, 'GET', `/delegations/${delegationId}`);
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body).toMatchObject({
      status: 'parked',
      decidedCards: [],
      transcriptSummary: [],
    });
    expect(rebuilt.body.partial).toMatch(
      /^(no worker polls its task queue \S+|its state query got no answer within \d+ s \(.+\))$/,
    );

    await spawnWorker(harness, cleanups);
    const state = await eventually(
      async () => {
        const { body } = await timedRequest(app, 'GET', `/delegations/${delegationId}`);
        const current = body as unknown as DelegationState;
        return current.result && current.partial === undefined ? current : undefined;
      },
      'the delegation to finish after the worker is back',
      90_000,
    );
    expect(state.result?.status).toBe('completed');
    expect(state.decidedCards).toMatchObject([
      {
        id: card!.id,
        state: {
          status: won === 'approve' ? 'approved' : 'denied',
          reason: won === 'approve' ? 'go' : 'stop',
        },
      },
    ]);
    // The write ran exactly when the recorded decision was an approval.
    if (won === 'approve') {
      expect(await readFile(join(harness.workspace, 'note.txt'), 'utf8')).toBe('noted\n');
    } else {
      expect(existsSync(join(harness.workspace, 'note.txt'))).toBe(false);
      expect(state.result?.deniedCalls).toMatchObject([{ tool: 'write', by: 'human' }]);
    }
    // Deciding it once more now meets the applied decision: 409, from the workflow itself.
    expect(
      await timedRequest(app, 'POST', `/cards/${card!.id}`, { decision: 'approve' }),
    ).toMatchObject({
      status: 409,
      body: { error: 'conflict' },
    });
  });

  it('two decisions held behind a workflow task in progress: one is recorded, the other refused', async () => {
    const harness = await createHarness(scribeAgent);
    cleanups.push(() => harness.close());
    const { client, taskQueue } = harness;
    const namespace = harness.config.temporal.namespace;
    const session = `held-${randomUUID().slice(0, 8)}`;
    const handle = await harness.start('scribe', 'Write the note', { session });
    const card = await eventually(
      async () => (await harness.delegations.cards({ session }))[0],
      'the write card',
    );
    await harness.stopWorker();

    // A workflow task that someone took and never finished (a worker that died holding it).
    // While it is in progress the server holds every signal back from the history.
    await handle.signal('deputyTestPoke');
    // A long poll: the server wants a deadline on it.
    const { taskToken } = await client.connection.withDeadline(Date.now() + 60_000, () =>
      client.workflowService.pollWorkflowTaskQueue({
        namespace,
        taskQueue: {
          name: taskQueue,
          kind: proto.temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL,
        },
        identity: 'a worker that dies holding the task',
      }),
    );
    expect(taskToken?.length).toBeGreaterThan(0);

    const decide = (decision: 'approve' | 'deny') =>
      harness.delegations.decide(card.id, { decision, reason: decision }).then(
        (outcome) => ({ decision, outcome, error: null }),
        (error: unknown) => ({ decision, outcome: null, error }),
      );
    const release = sleep(1_500).then(() =>
      client.workflowService.respondWorkflowTaskFailed({
        namespace,
        taskToken,
        identity: 'a worker that dies holding the task',
      }),
    );
    const [approve, deny] = await Promise.all([decide('approve'), decide('deny'), release]);
    const answers = [approve, deny];
    const recorded = answers.filter((one) => one.outcome !== null);
    const refused = answers.filter((one) => one.error !== null);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.outcome).toMatchObject({
      status: 'recorded',
      decision: { cardId: card.id },
    });
    expect(refused).toHaveLength(1);
    expect(refused[0]!.error).toMatchObject({ kind: 'conflict' });
    expect(String(refused[0]!.error)).toMatch(/recorded just before yours/);

    await harness.startWorker();
    await handle.result();
    const won = recorded[0]!.decision;
    expect((await harness.delegations.get(card.delegationId)).decidedCards).toMatchObject([
      { id: card.id, state: { status: won === 'approve' ? 'approved' : 'denied', reason: won } },
    ]);
  }, 90_000);

  it('a retried decision meets the first one, applied while a worker ran: 409 from the history, not 404', async () => {
    const harness = await createHarness({
      '.subagents/agents/twice.md':
        '---\nname: twice\ndescription: writes two notes\nmodel: scripted:scripts/twice.yaml\ntools: [write]\napprovalMode: confirm\n---\nWrite.\n',
      'scripts/twice.yaml': `turns:
  - toolCalls: [{ name: write, arguments: { path: one.txt, content: "1" } }]
  - toolCalls: [{ name: write, arguments: { path: two.txt, content: "2" } }]
  - text: Wrote both.
`,
    });
    cleanups.push(() => harness.close());
    const session = `retry-${randomUUID().slice(0, 8)}`;
    await harness.start('twice', 'Write two notes', { session });
    const first = await eventually(
      async () => (await harness.delegations.cards({ session }))[0],
      'the first write card',
    );
    await harness.delegations.decide(first.id, { decision: 'deny', reason: 'not one' });
    // Applied: the run moved on to the second card.
    await eventually(
      async () =>
        (await harness.delegations.cards({ session })).find((card) => card.id !== first.id),
      'the second write card',
    );
    await harness.stopWorker();

    // The same decision again, as a caller whose first answer was lost (a 503) would send it.
    // With no worker the run's state cannot be asked; its history still knows the card's fate.
    const retried = await harness.delegations
      .decide(first.id, { decision: 'deny', reason: 'not one' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(retried).toMatchObject({ kind: 'conflict' });
    expect(String(retried)).toMatch(/was already decided: a decision \(deny\) was recorded before/);
  }, 90_000);
});
