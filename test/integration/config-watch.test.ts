/**
 * The watched configuration on a real dev server: the worker `deputy worker` and `deputy dev` run
 * (startWorkerRuntime) on a watched configuration. Changing `models.default` in
 * `.subagents/config.yaml` is used by the next delegation without restarting the worker, and an
 * invalid edit after it leaves the last good model in use.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { watchConfig, type ConfigWatcher } from '../../src/config/watch.js';
import { ANONYMOUS_CALLER } from '../../src/shared/caller.js';
import type { DelegationResult } from '../../src/shared/delegation.js';
import { createDelegations, type Delegations } from '../../src/temporal/delegations/facade.js';
import { startWorkerRuntime, type WorkerRuntime } from '../../src/worker/worker.js';
import type { delegation } from '../../src/workflows/index.js';
import { eventually, workflowBundle, writeFiles } from './support/harness.js';

const configFor = (script: string) => `models:\n  default: scripted:scripts/${script}.yaml\n`;

let workspace: string;
let watcher: ConfigWatcher;
let worker: WorkerRuntime;
let connection: Connection;
let client: Client;
let delegations: Delegations;

beforeAll(async () => {
  const address = inject('temporalAddress');
  workspace = await writeFiles(await mkdtemp(join(tmpdir(), 'deputy-config-watch-')), {
    '.subagents/config.yaml': configFor('one'),
    '.subagents/agents/picker.md':
      '---\nname: picker\ndescription: answers with whatever model is the default\nmodel: default\ntools: [read]\n---\nAnswer.\n',
    'scripts/one.yaml': 'turns:\n  - text: answered by script one\n',
    'scripts/two.yaml': 'turns:\n  - text: answered by script two\n',
  });
  const env = { DEPUTY_USER_DIR: join(workspace, '.user-config') };
  const config = loadConfig({ workspace, temporalAddress: address }, env);
  watcher = watchConfig(config, { env });
  await watcher.ready;
  const taskQueue = `test-${randomUUID()}`;
  worker = await startWorkerRuntime(watcher, address, {
    taskQueue,
    workflowBundle: await workflowBundle(),
  });
  connection = await Connection.connect({ address });
  client = new Client({ connection });
  delegations = createDelegations(client, { namespace: 'default', taskQueue });
});

afterAll(async () => {
  await worker?.stop();
  await watcher?.close();
  await connection?.close();
});

async function delegate(): Promise<DelegationResult> {
  const { workflowId } = await delegations.start({
    agent: 'picker',
    task: 'answer',
    session: 'config-watch',
    caller: ANONYMOUS_CALLER,
    options: {},
  });
  return client.workflow.getHandle<typeof delegation>(workflowId).result();
}

describe('a watched configuration on a running worker', () => {
  it('uses a new models.default for the next delegation, and keeps it through an invalid edit', async () => {
    expect((await delegate()).text).toBe('answered by script one');

    await writeFile(join(workspace, '.subagents/config.yaml'), configFor('two'));
    await eventually(
      async () =>
        watcher.current().models.default === 'scripted:scripts/two.yaml' ? true : undefined,
      'the edit to be read',
      10_000,
    );
    expect((await delegate()).text).toBe('answered by script two');

    await writeFile(join(workspace, '.subagents/config.yaml'), 'models: [one\n');
    await eventually(
      async () => (watcher.problem() === null ? undefined : true),
      'the invalid edit to be seen',
      10_000,
    );
    expect((await delegate()).text).toBe('answered by script two');
  });
});
