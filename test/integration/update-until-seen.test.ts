/**
 * An update a worker completes a task for without answering is rejected by the server as
 * `UnprocessedUpdate` (CI saw it once on a worker that had just replaced a SIGKILLed one). The
 * test plays that worker by hand over Temporal's own API: it polls the task that carries the
 * update and completes it with nothing; a real worker then takes the run over.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { executeUpdateUntilSeen } from '../../src/temporal/calls/update-until-seen.js';
import { echoUpdate } from '../fixtures/echo-workflow/index.js';
import { useCleanups } from '../support/cleanups.js';

const cleanups = useCleanups();
const NORMAL_QUEUE = temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL;

describe('executeUpdateUntilSeen', () => {
  it('sends again an update the worker left unanswered, and the next worker answers it', async () => {
    const address = inject('temporalAddress');
    const connection = await Connection.connect({ address, connectTimeout: '60 seconds' });
    cleanups.push(() => connection.close());
    const client = new Client({ connection });
    const taskQueue = `echo-${randomUUID()}`;
    const handle = await client.workflow.start('echoOnce', {
      taskQueue,
      workflowId: `echo-${randomUUID()}`,
    });
    cleanups.push(async () => {
      await handle.terminate().catch(() => undefined); // it has finished, unless the test failed
    });

    /** The next task of the run, polled as a worker would, and completed with no answer at all. */
    const byHand = {
      async poll() {
        // A long poll: the server wants a deadline on it, and answers within a minute.
        const task = await connection.withDeadline(Date.now() + 70_000, () =>
          connection.workflowService.pollWorkflowTaskQueue({
            namespace: 'default',
            taskQueue: { name: taskQueue, kind: NORMAL_QUEUE },
            identity: 'a worker played by the test',
          }),
        );
        expect(task.taskToken?.length).toBeGreaterThan(0);
        return task;
      },
      async completeWithNothing(task: { taskToken?: Uint8Array | null }) {
        await connection.workflowService.respondWorkflowTaskCompleted({
          namespace: 'default',
          taskToken: task.taskToken!,
          identity: 'a worker played by the test',
          commands: [],
          messages: [],
        });
      },
    };
    await byHand.completeWithNothing(await byHand.poll()); // the run's start: no command to make

    // What the server does with an update left unanswered: the plain SDK call fails with it.
    const plain = handle.executeUpdate(echoUpdate, { args: ['first'] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const first = await byHand.poll();
    expect(first.messages?.length).toBe(1);
    await byHand.completeWithNothing(first);
    const refusal = await plain;
    expect(refusal).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refusal as WorkflowUpdateFailedError).cause).toMatchObject({
      type: 'UnprocessedUpdate',
    });

    // The same with the helper, a real worker polling by the time the hand answers nothing. The
    // worker is built first: bundling takes long enough on a loaded machine for the hand-held
    // task to time out, which is another story.
    const nativeConnection = await NativeConnection.connect({ address });
    cleanups.push(() => nativeConnection.close());
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowsPath: join(PROJECT_ROOT, 'test/fixtures/echo-workflow/index.ts'),
    });
    const seen = executeUpdateUntilSeen(handle, echoUpdate, {
      args: ['second'],
      updateId: 'the caller names it, as a message id does', // sent again under the same id
    });
    seen.catch(() => undefined); // awaited below; a failure before that is the test's, not unhandled
    const second = await byHand.poll();
    expect(second.messages?.length).toBe(1);
    await worker.runUntil(async () => {
      await byHand.completeWithNothing(second);
      expect(await seen).toBe('heard second');
      expect(await handle.result()).toBe('second');
    });
  }, 120_000);
});
