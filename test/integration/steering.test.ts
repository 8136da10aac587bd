/**
 * Steering a running delegation, on the real dev server: messages sent through the
 * API, the typed client and the CLI wait while the delegation is parked on a card, keep their
 * order, and reach the model at its next call (the scripted model echoes the last user message);
 * they show in the transcript, the event stream and GET /delegations/:id; a finished delegation
 * refuses one (409). And a message survives a SIGKILLed worker: delivered once after a new one
 * starts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeputyClient } from '../../src/client/deputy-client.js';
import type { DelegationResult, DelegationState } from '../../src/shared/delegation.js';
import { stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { useCleanups } from '../support/cleanups.js';
import { jsonCaller } from './support/app-request.js';
import { createHarness, eventually, recordHistory, type Harness } from './support/harness.js';
import { slowStopAgent, steeredAgent } from './support/steered-agent.js';
import { killWorker, spawnWorker } from './support/worker-process.js';

const cleanups = useCleanups();
let harness: Harness;
let server: ApiServer;
let port: number;
const call = jsonCaller(() => `http://127.0.0.1:${port}`);

beforeAll(async () => {
  harness = await createHarness({ ...steeredAgent, ...slowStopAgent });
  port = await freePort();
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port } },
    { delegations: harness.delegations, definitions: harness.registry, events: { pollMs: 50 } },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

const idOf = (handle: WorkflowHandle) => handle.workflowId.split('/').pop()!;

async function parked(handle: WorkflowHandle): Promise<DelegationState> {
  return eventually(
    async () => {
      const state = await handle.query(stateQuery);
      return state.pendingCards.length === 1 ? state : undefined;
    },
    'a pending card',
    60_000,
  );
}

async function approve(state: DelegationState): Promise<void> {
  await harness.delegations.decide(state.pendingCards[0]!.id, { decision: 'approve' });
}

function cli(args: string[]) {
  return runDeputy(args, {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: harness.address,
      DEPUTY_TASK_QUEUE: harness.taskQueue,
      DEPUTY_WORKSPACE: harness.workspace,
      DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
      DEPUTY_LOCAL_API: '0',
    },
    cwd: harness.workspace,
  });
}

describe('steering a running delegation', () => {
  it('delivers the API and client messages in order at the next model call, then refuses one', async () => {
    const handle = await harness.start('steered', 'Do the task');
    const id = idOf(handle);
    const card = await parked(handle);

    const first = await call('POST', `/delegations/${id}/messages`, { text: 'first note' });
    expect(first).toMatchObject({
      status: 202,
      body: { seq: 1, text: 'first note', deliveredAt: null, deliveredBeforeRound: null },
    });
    const client = createDeputyClient({ url: `http://127.0.0.1:${port}` });
    expect(await client.delegations.send(id, 'second note')).toMatchObject({
      seq: 2,
      text: 'second note',
      deliveredAt: null,
    });
    // Both wait: the model has not been called since.
    const waiting = await call('GET', `/delegations/${id}`);
    expect(waiting.body.messages).toMatchObject([
      { seq: 1, deliveredAt: null },
      { seq: 2, deliveredAt: null },
    ]);
    expect(waiting.body.transcriptSummary).not.toContain('user: first note');
    // A blank or unknown one is refused before Temporal.
    expect((await call('POST', `/delegations/${id}/messages`, { text: '  ' })).status).toBe(422);
    expect((await call('POST', '/delegations/d-nosuchthing/messages', { text: 'x' })).status).toBe(
      404,
    );

    await approve(card);
    const result = (await handle.result()) as DelegationResult;
    // The model's second call saw both, the second last.
    expect(result).toMatchObject({ status: 'completed', text: 'Heard: second note' });

    const state = await call('GET', `/delegations/${id}`);
    const summary = state.body.transcriptSummary as string[];
    expect(summary.slice(-4)).toEqual([
      expect.stringMatching(/^bash: /),
      'user: first note',
      'user: second note',
      'assistant: Heard: second note',
    ]);
    expect(state.body.messages).toMatchObject([
      { seq: 1, deliveredBeforeRound: 2, deliveredAt: expect.any(String) },
      { seq: 2, deliveredBeforeRound: 2, deliveredAt: expect.any(String) },
    ]);
    const events = await harness.delegations.events(id, 0);
    expect(events.filter((event) => event.type === 'message').map((event) => event.text)).toEqual([
      'first note',
      'second note',
    ]);

    await recordHistory(handle, 'steered-messages');

    const late = await call('POST', `/delegations/${id}/messages`, { text: 'too late' });
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/has finished.*resume it/);
    await expect(client.delegations.send(id, 'too late')).rejects.toMatchObject({ status: 409 });
  }, 90_000);

  it('through the CLI: deputy send, and a refusal once finished', async () => {
    const handle = await harness.start('steered', 'CLI task');
    const id = idOf(handle);
    const card = await parked(handle);
    const sent = await cli(['send', id, 'hello', 'from', 'the', 'cli']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/^message 1 queued for /);
    await approve(card);
    expect(await handle.result()).toMatchObject({ text: 'Heard: hello from the cli' });

    const late = await cli(['send', id, 'too', 'late']);
    expect(late.code).toBe(4);
    expect(late.stderr).toMatch(/has finished/);
  }, 90_000);
});

describe('a finishing delegation', () => {
  it('refuses a message in its validator while it is still running its Stop hook', async () => {
    const handle = await harness.start('slow-stop', 'Finish slowly');
    const id = idOf(handle);
    await eventually(
      async () => (existsSync(join(harness.workspace, 'stopping.flag')) ? true : undefined),
      'the Stop hook to start',
      60_000,
    );
    // Temporal still has it running: the refusal is the workflow's own, not the facade's look.
    expect((await handle.describe()).status.name).toBe('RUNNING');
    const refused = await call('POST', `/delegations/${id}/messages`, { text: 'one more thing' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/has finished: resume it/);
    expect(await handle.result()).toMatchObject({ status: 'completed', text: 'Done.' });
    expect((await handle.query(stateQuery)).messages).toBeUndefined();
  }, 90_000);
});

describe('steering survives the worker', () => {
  it('is refused as unavailable while no worker polls: an update needs one, nothing is stored', async () => {
    const own = await createHarness(steeredAgent, { startWorker: false });
    cleanups.push(() => own.close());
    const handle = await own.start('steered', 'Nobody runs me yet');
    await expect(
      own.delegations.send(idOf(handle), { text: 'anyone there?', from: null }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/no worker is running/),
    });
    const history = (await handle.fetchHistory()).events ?? [];
    expect(history.some((event) => event.workflowExecutionUpdateAcceptedEventAttributes)).toBe(
      false,
    );
  }, 60_000);

  it('delivers a message sent before a SIGKILL once, after a new worker starts', async () => {
    const own = await createHarness(steeredAgent, { startWorker: false });
    cleanups.push(() => own.close());
    const first = await spawnWorker(own, cleanups);
    const handle = await own.start('steered', 'Durable task');
    const id = idOf(handle);
    const card = await eventually(
      async () => {
        const state = await handle.query(stateQuery);
        return state.pendingCards.length === 1 ? state : undefined;
      },
      'a pending card',
      60_000,
    );
    expect(await own.delegations.send(id, { text: 'durable note', from: null })).toMatchObject({
      seq: 1,
    });
    await killWorker(first);
    await spawnWorker(own, cleanups);
    await own.delegations.decide(card.pendingCards[0]!.id, { decision: 'approve' });

    expect(await handle.result()).toMatchObject({ text: 'Heard: durable note' });
    const state = await handle.query(stateQuery);
    expect(state.transcriptSummary.filter((line) => line === 'user: durable note')).toHaveLength(1);
    expect(state.messages).toMatchObject([{ seq: 1, deliveredBeforeRound: 2 }]);
  }, 120_000);
});
