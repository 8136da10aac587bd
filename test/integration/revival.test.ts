/**
 * Reviving a finished delegation, on the real dev server: `POST
 * /delegations/:id/resume`, the typed client and `deputy resume` each start a NEW delegation
 * whose model is sent the original's whole transcript (read from its history) plus the new
 * message, with no tool run again; it is linked to the original (`origin` in its state and its
 * listing row, the DeputyForkedFrom search attribute). A stopped delegation resumes too (its
 * unanswered call is told as not run); a running one is refused (409: send it a message).
 */
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallModelInput } from '../../src/shared/workflow-contract/activities.js';
import { createDeputyClient } from '../../src/client/deputy-client.js';
import type { DelegationResult, DelegationState } from '../../src/shared/delegation.js';
import { stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { FORKED_FROM_ATTRIBUTE } from '../../src/shared/workflow-contract/search-attributes.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { jsonCaller } from './support/app-request.js';
import { createHarness, eventually, recordHistory, type Harness } from './support/harness.js';
import { steeredAgent } from './support/steered-agent.js';

let harness: Harness;
let server: ApiServer;
let port: number;
const call = jsonCaller(() => `http://127.0.0.1:${port}`);

beforeAll(async () => {
  harness = await createHarness(steeredAgent);
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

/** A `steered` delegation that ran its bash call and answered `Heard: <task>`. */
async function completed(task: string): Promise<string> {
  const handle = await harness.start('steered', task);
  const card = await parked(handle);
  await harness.delegations.decide(card.pendingCards[0]!.id, { decision: 'approve' });
  expect(await handle.result()).toMatchObject({ status: 'completed', text: `Heard: ${task}` });
  return idOf(handle);
}

type Events = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>;

function scheduled<T>(events: Events, type: string): T[] {
  return events.flatMap((event) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (attributes?.activityType?.name !== type) return [];
    const data = attributes.input?.payloads?.[0]?.data ?? new Uint8Array();
    return [JSON.parse(Buffer.from(data).toString('utf8')) as T];
  });
}

describe('reviving a finished delegation', () => {
  it('through the API: a new, linked delegation whose model sees the old transcript and the message', async () => {
    const original = await completed('First task');
    const answer = await call('POST', `/delegations/${original}/resume`, { text: 'go on please' });
    expect(answer).toMatchObject({
      status: 201,
      body: { agent: 'steered', status: 'running', links: { self: expect.any(String) } },
    });
    const resumedId = answer.body.delegationId as string;
    expect(resumedId).not.toBe(original);
    const handle = harness.client.workflow.getHandle(answer.body.workflowId as string);
    const result = (await handle.result()) as DelegationResult;
    // Two answers carried, so the script's third turn answers; a fresh count of its own rounds.
    expect(result).toMatchObject({
      status: 'completed',
      text: 'Again: go on please',
      roundsUsed: 1,
    });

    const events = (await handle.fetchHistory()).events ?? [];
    expect(scheduled(events, 'runTool')).toEqual([]);
    const [firstCall] = scheduled<CallModelInput>(events, 'callModel');
    expect(firstCall!.transcript.map((entry) => [entry.role, entry.content])).toEqual([
      ['user', 'First task'],
      ['assistant', 'Step one.'],
      ['tool', expect.any(String)],
      ['assistant', 'Heard: First task'],
      ['user', 'go on please'],
    ]);

    await recordHistory(handle, 'resumed');
    const state = await call('GET', `/delegations/${resumedId}`);
    expect(state.body.origin).toEqual({ delegationId: original, fromRound: 2, resumed: true });
    const listed = await eventually(async () => {
      const rows = (await call('GET', '/delegations?session=test')).body.delegations as Array<{
        delegationId: string;
        origin?: unknown;
      }>;
      return rows.find((row) => row.delegationId === resumedId);
    }, 'the resumed delegation listed');
    expect(listed.origin).toEqual({ delegationId: original, fromRound: 2, resumed: true });
    expect((await handle.describe()).typedSearchAttributes.get(FORKED_FROM_ATTRIBUTE)).toBe(
      original,
    );

    // Refusals: a blank message, an unknown delegation.
    expect((await call('POST', `/delegations/${original}/resume`, { text: ' ' })).status).toBe(422);
    expect((await call('POST', '/delegations/d-nosuchthing/resume', { text: 'x' })).status).toBe(
      404,
    );
  }, 90_000);

  it('refuses a running delegation (send it a message instead); resumes a stopped one', async () => {
    const handle = await harness.start('steered', 'Stop me');
    const id = idOf(handle);
    await parked(handle);
    const refused = await call('POST', `/delegations/${id}/resume`, { text: 'not yet' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/send it a message instead/);

    await harness.delegations.stop(id);
    expect(await handle.result()).toMatchObject({ status: 'stopped' });
    const resumed = await harness.delegations.resume(id, {
      text: 'after the stop',
      caller: { id: null, roles: [] },
    });
    const revived = harness.client.workflow.getHandle(resumed.workflowId);
    // One answer carried (its call answered as not run), so the script's second turn answers.
    expect(await revived.result()).toMatchObject({ text: 'Heard: after the stop' });
    const [firstCall] = scheduled<CallModelInput>(
      (await revived.fetchHistory()).events ?? [],
      'callModel',
    );
    expect(firstCall!.transcript[2]).toMatchObject({
      role: 'tool',
      isError: true,
      content: expect.stringMatching(/ended \(stopped\).*not run again/),
    });
  }, 90_000);

  it('through the typed client and deputy resume', async () => {
    const original = await completed('Client task');
    const client = createDeputyClient({ url: `http://127.0.0.1:${port}` });
    const viaClient = await client.delegations.resume(original, { text: 'from the client' });
    expect(viaClient).toMatchObject({ agent: 'steered', status: 'running' });
    expect(await harness.client.workflow.getHandle(viaClient.workflowId).result()).toMatchObject({
      text: 'Again: from the client',
    });

    const viaCli = await runDeputy(['resume', original, 'from', 'the', 'cli'], {
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
    expect(viaCli.code, viaCli.stderr).toBe(0);
    const cliId = viaCli.stdout.trim();
    expect(viaCli.stderr).toContain(`resumed ${original} as ${cliId}`);
    expect(await harness.delegations.settle(cliId)).toMatchObject({
      status: 'finished',
      result: { text: 'Again: from the cli' },
    });
  }, 90_000);
});
