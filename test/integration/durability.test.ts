/**
 * A delegation parked on a card survives a SIGKILLed worker process and a restart of
 * the Temporal server on the same SQLite file; and no tool ever runs twice.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import { stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { freePort, startDevServer, type DevServer } from '../../src/servers/dev/dev-server.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { killWorker, spawnWorker } from './support/worker-process.js';
import { useCleanups } from '../support/cleanups.js';

const counterAgent = {
  '.subagents/agents/counter.md':
    '---\nname: counter\ndescription: appends to a counter file\nmodel: scripted:scripts/counter.yaml\ntools: [bash]\n---\nCount.\n',
  'scripts/counter.yaml': `turns:
  - text: Step one.
    toolCalls: [{ name: bash, arguments: { command: "echo step1 >> counter.log" } }]
  - text: Step two.
    toolCalls: [{ name: bash, arguments: { command: "echo step2 >> counter.log" } }]
  - text: Counted twice.
`,
};

const longJobAgent = {
  '.subagents/agents/long-job.md':
    '---\nname: long-job\ndescription: runs one long command\nmodel: scripted:scripts/long-job.yaml\ntools: [bash]\napprovalMode: full-access\n---\nWork.\n',
  'scripts/long-job.yaml': `turns:
  - text: Starting the job.
    toolCalls: [{ name: bash, arguments: { command: "echo started >> job.log; sleep 27.1828; echo finished >> job.log" } }]
  - text: "Job result: \${lastToolResult}"
`,
};

const cleanups = useCleanups();

async function pendingCard(handle: WorkflowHandle, round: number): Promise<DelegationState> {
  return eventually(
    async () => {
      const state = await handle.query(stateQuery);
      return state.pendingCards.length === 1 && state.roundsUsed === round ? state : undefined;
    },
    `a pending card in round ${round}`,
    60_000,
  );
}

/** A plain approve, as the API and the CLI send it (a stored signal, which needs no worker). */
async function approve(harness: Harness, state: DelegationState): Promise<void> {
  await harness.delegations.decide(state.pendingCards[0]!.id, { decision: 'approve' });
}

describe('durability', () => {
  it('survives a SIGKILLed worker while parked; every tool runs exactly once', async () => {
    const harness = await createHarness(counterAgent, { startWorker: false });
    cleanups.push(() => harness.close());
    const first = await spawnWorker(harness, cleanups);
    const handle = await harness.start('counter', 'Count');

    await approve(harness, await pendingCard(handle, 1));
    const parked = await pendingCard(handle, 2);
    expect(await readFile(join(harness.workspace, 'counter.log'), 'utf8')).toBe('step1\n');

    await killWorker(first);

    // With no worker at all, the pending card is still listed (mirrored in the memo).
    const listed = await eventually(async () => {
      const cards = await harness.delegations.cards({ session: 'test' });
      return cards.length === 1 ? cards : undefined;
    }, 'the pending card listed without a worker');
    expect(listed[0]).toMatchObject({
      id: parked.pendingCards[0]!.id,
      tool: 'bash',
      arguments: { command: 'echo step2 >> counter.log' },
    });

    await spawnWorker(harness, cleanups);
    await approve(harness, parked);

    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', text: 'Counted twice.', roundsUsed: 3 });
    expect(await readFile(join(harness.workspace, 'counter.log'), 'utf8')).toBe('step1\nstep2\n');
  });

  it('never retries an exec tool whose worker died mid-run; the model is told instead', async () => {
    const harness = await createHarness(longJobAgent, { startWorker: false });
    cleanups.push(() => harness.close());
    const first = await spawnWorker(harness, cleanups);
    const handle = await harness.start('long-job', 'Run the job');
    await eventually(
      async () =>
        (await readFile(join(harness.workspace, 'job.log'), 'utf8').catch(() => ''))
          ? true
          : undefined,
      'the job to start',
    );
    await killWorker(first);
    await spawnWorker(harness, cleanups);

    const result = await handle.result();
    expect(result.status).toBe('completed');
    expect(result.text).toContain(
      "[tool 'bash' failed] the tool may have started but did not report back",
    );
    expect(result.text).toContain('it was not retried');
    // Started exactly once, never re-run by a retry; and it died with its worker (orphans.test.ts
    // shows that on its own), long before its 27 s were up.
    const log = await readFile(join(harness.workspace, 'job.log'), 'utf8');
    expect(log).toBe('started\n');
  }, 120_000);

  // The dev server's own restart; on the cluster profile test/cluster/faults.test.ts restarts
  // its parts (history, matching, PostgreSQL) instead.
  it.skipIf(inject('temporalProfile') === 'cluster')(
    'survives a Temporal server restart on the same SQLite file while parked',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'deputy-restart-'));
      const port = await freePort();
      let server: DevServer = await startDevServer({ dataDir, port, headless: true });
      cleanups.push(() => server.stop());

      const before = await createHarness(counterAgent, { address: server.address });
      const handle = await before.start('counter', 'Count across a restart');
      const parked = await pendingCard(handle, 1);
      await before.close();

      await server.stop();
      server = await startDevServer({ dataDir, port, headless: true });

      const after = await createHarness(
        {},
        { address: server.address, workspace: before.workspace, taskQueue: before.taskQueue },
      );
      cleanups.push(() => after.close());
      const again = after.client.workflow.getHandle(handle.workflowId);
      const state = await again.query(stateQuery);
      expect(state.status).toBe('parked');
      expect(state.pendingCards.map((card) => card.id)).toEqual(
        parked.pendingCards.map((card) => card.id),
      );

      await approve(after, state);
      await approve(after, await pendingCard(again, 2));
      const result = await again.result();
      expect(result).toMatchObject({ status: 'completed', roundsUsed: 3 });
      expect(await readFile(join(before.workspace, 'counter.log'), 'utf8')).toBe('step1\nstep2\n');
    },
  );
});
