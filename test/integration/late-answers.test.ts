/**
 * A call the server takes but answers after the 1.5 s bound, as a loaded server does, is asked
 * once more, and the caller learns the truth instead of a 503: a start finds its own run (or
 * somebody else's, a 409), a read is simply repeated, a card decision that landed is not sent
 * twice. The late answer is made by a client interceptor, the SDK's own extension point, around
 * the real call on the real dev server: the server has done the work at once, its answer reaches
 * the facade late.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type WorkflowClientInterceptor } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { DeputyError } from '../../src/errors.js';
import { delegationWorkflowId } from '../../src/shared/delegation.js';
import { RPC_TIMEOUT_MS } from '../../src/temporal/calls/rpc.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { START_TOKEN_MEMO } from '../../src/temporal/delegations/start.js';
import { createSessions } from '../../src/temporal/sessions/facade.js';
import { stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, type Harness } from './support/harness.js';
import { scribeAgent } from './support/scribe-agent.js';
import { useCleanups } from '../support/cleanups.js';
import { eventually } from '../support/eventually.js';

const cleanups = useCleanups();
const LATE_MS = RPC_TIMEOUT_MS + 1_000;
const anonymous = { id: null, roles: [] };

type Intercepted = 'startWithDetails' | 'describe' | 'signal';

/** The first such call goes through at once and its answer comes LATE_MS later; then plain. */
function lateFirstAnswer(method: Intercepted = 'startWithDetails'): {
  interceptor: WorkflowClientInterceptor;
  calls: () => number;
} {
  let calls = 0;
  const late = async <T>(call: () => Promise<T>): Promise<T> => {
    calls += 1;
    const output = await call();
    if (calls === 1) await sleep(LATE_MS);
    return output;
  };
  const interceptor: WorkflowClientInterceptor = {
    startWithDetails: (input, next) =>
      method === 'startWithDetails' ? late(() => next(input)) : next(input),
    describe: (input, next) => (method === 'describe' ? late(() => next(input)) : next(input)),
    signal: (input, next) => (method === 'signal' ? late(() => next(input)) : next(input)),
  };
  return { calls: () => calls, interceptor };
}

/** Signals of this name stored in the run's history, as Temporal holds them. */
async function storedSignals(harness: Harness, workflowId: string, name: string): Promise<number> {
  const history = await harness.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter(
    (event) => event.workflowExecutionSignaledEventAttributes?.signalName === name,
  ).length;
}

async function facadesOver(harness: Harness, interceptor: WorkflowClientInterceptor) {
  const client = new Client({
    connection: harness.client.connection,
    interceptors: { workflow: [interceptor] },
  });
  const delegations = createDelegations(client, {
    namespace: 'default',
    taskQueue: harness.taskQueue,
  });
  return {
    delegations,
    sessions: createSessions(client, delegations, { taskQueue: harness.taskQueue }),
  };
}

/** Runs listed under the id, once visibility lists any (it trails the start a little). */
async function runsWithId(harness: Harness, workflowId: string): Promise<number> {
  const query = `WorkflowId = '${workflowId}'`;
  return eventually(async () => {
    const { count } = await harness.client.workflow.count(query);
    return count > 0 ? count : undefined;
  }, `a run of ${workflowId} listed`);
}

describe('a start answered after the bound', () => {
  it('reports the delegation started, once, when the first ask landed', async () => {
    const harness = await createHarness(scribeAgent);
    cleanups.push(() => harness.close());
    const late = lateFirstAnswer();
    const { delegations } = await facadesOver(harness, late.interceptor);

    const began = Date.now();
    const started = await delegations.start({
      agent: 'scribe',
      task: 'Write the note',
      session: `late-${randomUUID().slice(0, 8)}`,
      caller: anonymous,
      options: {},
    });
    const elapsed = Date.now() - began;

    // Two asks: the first timed out (the bound, so it took at least that), the repeat was
    // answered "already started". A facade that waited for the late answer would have asked once.
    expect(late.calls()).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(RPC_TIMEOUT_MS);
    const description = await harness.client.workflow.getHandle(started.workflowId).describe();
    expect(description.status.name).toBe('RUNNING');
    expect(typeof description.memo?.[START_TOKEN_MEMO]).toBe('string');
    expect(await runsWithId(harness, started.workflowId)).toBe(1);
    await harness.client.workflow.getHandle(started.workflowId).terminate('test done');
  });

  it('reports the session started when the first ask landed', async () => {
    const harness = await createHarness(scribeAgent);
    cleanups.push(() => harness.close());
    const late = lateFirstAnswer();
    const { sessions } = await facadesOver(harness, late.interceptor);

    const started = await sessions.start({ agent: 'scribe', caller: anonymous, options: {} });

    expect(late.calls()).toBe(2);
    const handle = harness.client.workflow.getHandle(started.workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await handle.terminate('test done');
  });

  it('answers 409 when somebody else started the same id while the first ask was unanswered', async () => {
    const harness = await createHarness(scribeAgent);
    cleanups.push(() => harness.close());
    const delegationId = `race-${randomUUID().slice(0, 8)}`;
    let calls = 0;
    const { delegations } = await facadesOver(harness, {
      // The first ask never reaches the server; meanwhile another client takes the id.
      async startWithDetails(input, next) {
        calls += 1;
        if (calls > 1) return next(input);
        await harness.client.workflow.start(input.workflowType, {
          taskQueue: input.options.taskQueue,
          workflowId: input.options.workflowId,
          args: input.options.args,
          memo: { [START_TOKEN_MEMO]: 'somebody-else' },
        });
        await sleep(LATE_MS);
        throw new Error('the first ask never got through');
      },
    });

    const attempt = delegations.start({
      agent: 'scribe',
      task: 'Write the note',
      session: 'race',
      delegationId,
      caller: anonymous,
      options: {},
    });

    await expect(attempt).rejects.toThrow(DeputyError);
    await expect(attempt).rejects.toMatchObject({ kind: 'conflict' });
    expect(calls).toBe(2);
    // The run under the id is the other client's, untouched.
    const handle = harness.client.workflow.getHandle(delegationWorkflowId('race', delegationId));
    const description = await handle.describe();
    expect(description.memo?.[START_TOKEN_MEMO]).toBe('somebody-else');
    expect(await runsWithId(harness, description.workflowId)).toBe(1);
    await handle.terminate('test done');
  });
});

describe('a call answered after the bound', () => {
  it('a read is asked once more: the delegation is read, no 503', async () => {
    const harness = await createHarness(scribeAgent);
    cleanups.push(() => harness.close());
    const { delegationId } = await harness.delegations.start({
      agent: 'scribe',
      task: 'Write the note',
      session: 'late-read',
      caller: anonymous,
      options: {},
    });
    const late = lateFirstAnswer('describe');
    const { delegations } = await facadesOver(harness, late.interceptor);

    const stopped = await delegations.stop(delegationId);

    expect(stopped).toEqual({ stopped: true });
    expect(late.calls()).toBeGreaterThanOrEqual(2);
  });

  it('a decision that landed late is answered, and stored once', async () => {
    const harness = await createHarness(scribeAgent);
    cleanups.push(() => harness.close());
    const handle = await harness.start('scribe', 'Write the note');
    const card = await eventually(async () => {
      const state = await handle.query(stateQuery);
      return state.pendingCards[0];
    }, 'the card');
    const late = lateFirstAnswer('signal');
    const { delegations } = await facadesOver(harness, late.interceptor);

    const outcome = await delegations.decide(card.id, { decision: 'approve' });

    expect(outcome).toMatchObject({ id: card.id, state: { status: 'approved' } });
    expect(late.calls()).toBe(1);
    expect(await storedSignals(harness, handle.workflowId, 'decideCard')).toBe(1);
  });

  it('a message to a session that landed late is answered, and stored once', async () => {
    const harness = await createHarness(scribeAgent);
    cleanups.push(() => harness.close());
    const { sessionId, workflowId } = await harness.sessions.start({
      agent: 'scribe',
      caller: anonymous,
      options: {},
    });
    const late = lateFirstAnswer('signal');
    const { sessions } = await facadesOver(harness, late.interceptor);

    await sessions.send(sessionId, { text: 'Write the note', from: null });

    expect(late.calls()).toBe(1);
    expect(await storedSignals(harness, workflowId, 'sessionMessage')).toBe(1);
    await harness.client.workflow.getHandle(workflowId).terminate('test done');
  });
});
