/**
 * Faults of a real Temporal cluster (src/cluster: PostgreSQL, and history, matching, frontend and
 * worker as separate processes): SIGKILL of history alone, of matching alone, and a PostgreSQL
 * restart, each while delegations are parked on cards and while a tool runs. What must hold:
 * no card is lost (the ones pending before the fault are the ones decided after it), no tool
 * runs twice (the tools append to files), every delegation completes once approved.
 *
 * The cluster is this file's own, so its faults never reach the suites that share the project's
 * cluster (test/global-setup.ts). Run with `npm run test:cluster`.
 */
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../src/servers/cluster/cluster.js';
import type { TemporalService } from '../../src/servers/cluster/server-config.js';
import { decideCardUpdate, stateQuery } from '../../src/shared/workflow-contract/messages.js';
import { createHarness, eventually, type Harness } from '../integration/support/harness.js';

const agents = {
  '.subagents/agents/counter.md':
    '---\nname: counter\ndescription: appends to its own counter file, one approved step at a time\nmodel: scripted:scripts/counter.yaml\ntools: [bash]\n---\nCount.\n',
  'scripts/counter.yaml': `turns:
  - text: Step one.
    toolCalls: [{ name: bash, arguments: { command: "echo step1 >> \${task}.log" } }]
  - text: Step two.
    toolCalls: [{ name: bash, arguments: { command: "echo step2 >> \${task}.log" } }]
  - text: Counted twice.
`,
  '.subagents/agents/job.md':
    '---\nname: job\ndescription: runs one command of a second\nmodel: scripted:scripts/job.yaml\ntools: [bash]\napprovalMode: full-access\n---\nWork.\n',
  'scripts/job.yaml': `turns:
  - text: Starting.
    toolCalls: [{ name: bash, arguments: { command: "echo started >> \${task}.log; sleep 1; echo finished >> \${task}.log; echo reported-\${task}" } }]
  - text: "Done: \${lastToolResult}"
`,
};

let cluster: Cluster;
let dataDir: string;
let harness: Harness;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'deputy-cluster-faults-'));
  // As root, PostgreSQL runs as user postgres, which must be able to enter this folder.
  await chmod(dataDir, 0o755);
  cluster = await startCluster({ dataDir, detached: false, ui: false });
  harness = await createHarness(agents, { address: cluster.address });
}, 300_000);

afterAll(async () => {
  await harness?.close();
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 120_000);

const log = (name: string) =>
  readFile(join(harness.workspace, `${name}.log`), 'utf8').catch(() => '');

async function pendingCardIn(handle: WorkflowHandle, round: number): Promise<string> {
  return eventually(
    async () => {
      const state = await handle.query(stateQuery);
      return state.pendingCards.length === 1 && state.roundsUsed === round
        ? state.pendingCards[0]!.id
        : undefined;
    },
    `${handle.workflowId}: a pending card in round ${round}`,
    90_000,
  );
}

/** Approves the pending card of `round`, retried while the cluster is still recovering. */
async function approveRound(handle: WorkflowHandle, round: number): Promise<string> {
  const cardId = await pendingCardIn(handle, round);
  await eventually(
    async () => {
      await handle.executeUpdate(decideCardUpdate, { args: [{ cardId, decision: 'approve' }] });
      return true;
    },
    `${handle.workflowId}: approving card ${cardId}`,
    90_000,
    500,
  );
  return cardId;
}

type Fault = { name: string; inject: () => Promise<void> };

const killAndRestart = (service: TemporalService): Fault => ({
  name: `SIGKILL of ${service} alone`,
  async inject() {
    await cluster.killService(service);
    // Longer than the running tool has left: its completion reaches a cluster without it.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await cluster.startService(service);
  },
});

const faults: Fault[] = [
  killAndRestart('history'),
  killAndRestart('matching'),
  { name: 'a PostgreSQL restart', inject: () => cluster.restartPostgres(3_000) },
];

describe('a Temporal cluster under faults', () => {
  it.each(faults.map((fault, index) => [fault.name, fault, index] as const))(
    '%s, with delegations parked and a tool running: no card lost, no tool run twice',
    async (_name, fault, index) => {
      const counters = [`count-${index}-a`, `count-${index}-b`];
      const job = `job-${index}`;
      const parked = await Promise.all(counters.map((task) => harness.start('counter', task)));
      const cardsBefore = await Promise.all(parked.map((handle) => pendingCardIn(handle, 1)));
      const running = await harness.start('job', job);
      await eventually(async () => ((await log(job)) ? true : undefined), 'the job to start');

      await fault.inject();

      // The cards pending before the fault are the ones there after it, and they decide.
      const decided = await Promise.all(parked.map((handle) => approveRound(handle, 1)));
      expect(decided).toEqual(cardsBefore);
      await Promise.all(parked.map((handle) => approveRound(handle, 2)));
      for (const handle of parked) {
        expect(await handle.result()).toMatchObject({ status: 'completed', roundsUsed: 3 });
      }
      // The tool's own result reached the model: its completion survived the fault, and it was
      // not written off as "may have started".
      const jobResult = await running.result();
      expect(jobResult.status).toBe('completed');
      expect(jobResult.text).toContain(`reported-${job}`);
      for (const task of counters) expect(await log(task)).toBe('step1\nstep2\n');
      expect(await log(job)).toBe('started\nfinished\n');
    },
    240_000,
  );
});
