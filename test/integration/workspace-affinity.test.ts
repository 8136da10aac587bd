/**
 * Workspace-affine workers: two `deputy worker` processes on one task queue, each in
 * a workspace of its own with its own `temporal.workspaceId`. A delegation started under one
 * workspace's configuration runs its model calls and tools on that workspace's worker only,
 * whichever worker runs its workflow tasks. With that worker SIGKILLed, its delegations wait
 * (and say for which queue) while the other workspace's go on; restarted, it finishes them.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { toolQueueOf } from '../../src/shared/workflow-contract/tool-queue.js';
import { ANONYMOUS_CALLER } from '../../src/shared/caller.js';
import type { DelegationResult } from '../../src/shared/delegation.js';
import { createDelegations, type Delegations } from '../../src/temporal/delegations/facade.js';
import { createSessions, type Sessions } from '../../src/temporal/sessions/facade.js';
import { eventually } from '../support/eventually.js';
import { useCleanups } from '../support/cleanups.js';
import { spawnCliWorker } from './support/cli-worker.js';
import { writeFiles } from './support/harness.js';
import { leadAgent } from './support/session-agents.js';
import { killWorker } from './support/worker-process.js';

const cleanups = useCleanups();

/** A workspace whose `writer` writes `<task>.txt` saying which workspace it is, then reads it. */
function workspaceFiles(workspaceId: string): Record<string, string> {
  return {
    '.subagents/config.yaml': `temporal:\n  workspaceId: ${workspaceId}\n`,
    '.subagents/agents/writer.md':
      '---\nname: writer\ndescription: writes a file named after its task\nmodel: scripted:scripts/writer.yaml\ntools: [write, read]\napprovalMode: full-access\n---\nWrite.\n',
    'scripts/writer.yaml': `turns:
  - text: Writing.
    toolCalls: [{ name: write, arguments: { path: "\${task}.txt", content: "written in ${workspaceId}\\n" } }]
  - text: Reading it back.
    toolCalls: [{ name: read, arguments: { path: "\${task}.txt" } }]
  - text: "Read: \${lastToolResult}"
`,
    // A main agent that hands `s1` to the writer: the child works where the session does.
    ...leadAgent(`  - text: Handing over.
    toolCalls: [{ name: Task, arguments: { description: write s1, prompt: s1, subagent_type: writer } }]
  - text: "Done. \${lastToolResult}"
`),
  };
}

interface Workspace {
  id: string;
  directory: string;
  toolQueue: string;
  delegations: Delegations;
  sessions: Sessions;
  env: Record<string, string>;
}

async function workspace(
  id: string,
  client: Client,
  address: string,
  taskQueue: string,
): Promise<Workspace> {
  const directory = await writeFiles(
    await mkdtemp(join(tmpdir(), `deputy-affinity-${id}-`)),
    workspaceFiles(id),
  );
  const env = { TEMPORAL_ADDRESS: address, DEPUTY_TASK_QUEUE: taskQueue };
  // The tool queue as the workspace's own configuration names it, as the CLI and API do.
  const config = loadConfig(
    { workspace: directory },
    { ...env, DEPUTY_USER_DIR: join(directory, '.user-config') },
  );
  const toolQueue = toolQueueOf(config.temporal)!;
  const delegations = createDelegations(client, { namespace: 'default', taskQueue, toolQueue });
  const sessions = createSessions(client, delegations, { taskQueue, toolQueue });
  return { id, directory, toolQueue, delegations, sessions, env };
}

async function delegate(space: Workspace, task: string): Promise<string> {
  const started = await space.delegations.start({
    agent: 'writer',
    task,
    session: 'affinity',
    caller: ANONYMOUS_CALLER,
    options: {},
  });
  return started.delegationId;
}

async function finished(space: Workspace, delegationId: string): Promise<DelegationResult> {
  const settled = await space.delegations.settle(delegationId, {
    signal: AbortSignal.timeout(90_000),
  });
  if (settled.status !== 'finished') {
    throw new Error(`${delegationId} did not finish: ${JSON.stringify(settled).slice(0, 400)}`);
  }
  return settled.result;
}

async function written(space: Workspace, task: string): Promise<string | null> {
  const path = join(space.directory, `${task}.txt`);
  return existsSync(path) ? readFile(path, 'utf8') : null;
}

describe('workspace-affine workers', () => {
  it('runs each workspace’s tools on its own worker, and parks a workspace whose worker is gone', async () => {
    const address = inject('temporalAddress');
    const connection = await Connection.connect({ address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection });
    const taskQueue = `affinity-${randomUUID()}`;
    const a = await workspace('ws-a', client, address, taskQueue);
    const b = await workspace('ws-b', client, address, taskQueue);
    expect(a.toolQueue).toBe(`${taskQueue}-tools/ws-a`);
    expect(b.toolQueue).toBe(`${taskQueue}-tools/ws-b`);

    const [workerA] = await Promise.all([
      spawnCliWorker(a.directory, a.env, cleanups),
      spawnCliWorker(b.directory, b.env, cleanups),
    ]);
    // Its start line says which queues it serves.
    expect(workerA.output()).toContain(`task queue ${taskQueue}`);
    expect(workerA.output()).toContain(`tool queue ${a.toolQueue}`);

    // Each workspace's delegations write into that workspace, never the other.
    const [a1, b1] = await Promise.all([delegate(a, 'a1'), delegate(b, 'b1')]);
    const [resultA1, resultB1] = await Promise.all([finished(a, a1), finished(b, b1)]);
    // The read ran in the same workspace as the write (an ordinary activity on its tool queue).
    expect(resultA1.status).toBe('completed');
    expect(resultA1.text).toMatch(/^Read: .*written in ws-a$/);
    expect(resultB1.status).toBe('completed');
    expect(resultB1.text).toMatch(/^Read: .*written in ws-b$/);
    expect(await written(a, 'a1')).toBe('written in ws-a\n');
    expect(await written(b, 'a1')).toBeNull();
    expect(await written(b, 'b1')).toBe('written in ws-b\n');
    expect(await written(a, 'b1')).toBeNull();

    // The detail says where its tools ran, with or without a worker answering the query.
    expect((await a.delegations.get(a1)).toolQueue).toBe(a.toolQueue);
    expect((await b.delegations.get(b1)).toolQueue).toBe(b.toolQueue);

    // A session's children inherit its tool queue: B's session writes in B only.
    const { sessionId } = await b.sessions.start({
      agent: 'lead',
      message: 'Get s1 written',
      caller: ANONYMOUS_CALLER,
      options: {},
    });
    cleanups.push(async () => void (await b.sessions.stop(sessionId).catch(() => {})));
    const replied = await eventually(async () => {
      const state = await b.sessions.get(sessionId);
      return state.status === 'idle' && state.tasks[0]?.result ? state : undefined;
    }, 'the session to reply after its child');
    expect(replied.toolQueue).toBe(b.toolQueue);
    expect(replied.tasks[0]!.result).toMatchObject({ status: 'completed' });
    expect((await b.delegations.get(replied.tasks[0]!.taskId)).toolQueue).toBe(b.toolQueue);
    expect(await written(b, 's1')).toBe('written in ws-b\n');
    expect(await written(a, 's1')).toBeNull();

    // Workspace A's worker dies: B's delegations go on, A's wait for a worker on its queue.
    await killWorker(workerA.child);
    const [a2, b2] = await Promise.all([delegate(a, 'a2'), delegate(b, 'b2')]);
    expect(await finished(b, b2)).toMatchObject({ status: 'completed' });
    expect(await written(b, 'b2')).toBe('written in ws-b\n');

    // A's delegation waits: it is running, and nothing of it has run (no round, no file).
    const waitingState = await eventually(async () => {
      const state = await a.delegations.get(a2);
      return state.status === 'running' ? state : undefined;
    }, 'a2 to be running');
    // What settle says of a workspace none of whose workers runs. (For A it says so too once
    // Temporal stops counting the killed poller, up to 90 s later: a wait this test leaves out,
    // with a workspace that never had a worker, C, whose delegation B's worker also takes up.)
    const c = await workspace('ws-c', client, address, taskQueue);
    const c1 = await delegate(c, 'c1');
    const waiting = await c.delegations.settle(c1, { signal: AbortSignal.timeout(60_000) });
    if (waiting.status !== 'running') throw new Error(`c1 did not wait: ${waiting.status}`);
    expect(waiting.message).toContain(`no worker is running for tool queue ${c.toolQueue}`);
    expect(waiting.state).toMatchObject({
      status: 'running',
      roundsUsed: 0,
      toolQueue: c.toolQueue,
    });
    // B's worker ran its workflow task, yet nothing of it ran in either workspace.
    expect(waitingState).toMatchObject({ status: 'running', roundsUsed: 0 });
    expect(waitingState.toolQueue).toBe(a.toolQueue);
    expect(await written(a, 'a2')).toBeNull();
    expect(await written(b, 'a2')).toBeNull();

    // Restarted, A's worker takes its workspace's work up where it waited.
    await spawnCliWorker(a.directory, a.env, cleanups);
    const resultA2 = await finished(a, a2);
    expect(resultA2.status).toBe('completed');
    expect(resultA2.text).toMatch(/^Read: .*written in ws-a$/);
    expect(await written(a, 'a2')).toBe('written in ws-a\n');
    expect(await written(b, 'a2')).toBeNull();
  }, 360_000);
});
