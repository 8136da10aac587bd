/**
 * What the card benchmarks share: a workspace with one agent that asks to write one file (under
 * `confirm`, a card) and then answers, a dev server, a worker, the Delegations facade and the API
 * on loopback, all started in one temporary folder and stopped together.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { EventStreamOptions } from '../src/api/http/event-stream.js';
import { loadConfig } from '../src/config/load.js';
import { createRegistry } from '../src/definitions/registry/registry.js';
import { startApiServer, type ApiServer } from '../src/server.js';
import {
  createDelegations,
  type Delegations,
  type DelegationsOptions,
} from '../src/temporal/delegations/facade.js';
import { startDevServer } from '../src/servers/dev/dev-server.js';
import { startWorkerRuntime } from '../src/worker/worker.js';

/** The agent's name; its task names the file it writes (`out/<task>.txt`). */
export const APPROVER = 'approver';

export interface ApproverRig {
  api: ApiServer;
  delegations: Delegations;
  stop(): Promise<void>;
}

export async function startApproverRig(
  name: string,
  options: { pollMs?: DelegationsOptions['pollMs']; events?: EventStreamOptions } = {},
): Promise<ApproverRig> {
  const root = await mkdtemp(join(tmpdir(), `deputy-bench-${name}-`));
  const workspace = join(root, 'workspace');
  await mkdir(join(workspace, '.subagents', 'agents'), { recursive: true });
  await mkdir(join(workspace, 'scripts'), { recursive: true });
  await writeFile(
    join(workspace, 'scripts', 'approve.yaml'),
    'turns:\n  - text: writing\n    toolCalls: [{ name: write, arguments: { path: "out/${task}.txt", content: "approved\\n" } }]\n  - text: done\n',
  );
  await writeFile(
    join(workspace, '.subagents', 'agents', `${APPROVER}.md`),
    `---\nname: ${APPROVER}\ndescription: writes one file, after approval\nmodel: scripted:scripts/approve.yaml\ntools: [write]\napprovalMode: confirm\nmaxTurns: 4\n---\nWrite the file.\n`,
  );

  const server = await startDevServer({ dataDir: join(root, 'data'), headless: true });
  const stops: Array<() => Promise<void>> = [
    () => rm(root, { recursive: true, force: true }),
    () => server.stop(),
  ];
  const stop = async () => {
    for (const each of stops) await each();
  };
  try {
    const loaded = loadConfig(
      { workspace, temporalAddress: server.address },
      { DEPUTY_USER_DIR: join(root, 'user') },
    );
    const config = { ...loaded, api: { host: '127.0.0.1', port: 0 } };
    const taskQueue = `bench-${name}-${process.pid}`;
    const worker = await startWorkerRuntime(config, server.address, { taskQueue });
    stops.unshift(() => worker.stop());
    const connection = await Connection.connect({ address: server.address });
    stops.unshift(() => connection.close());
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const delegations = createDelegations(client, {
      namespace: config.temporal.namespace,
      taskQueue,
      ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    });
    const registry = createRegistry({ config });
    await registry.load();
    stops.unshift(() => registry.close());
    const quiet = { error: () => {}, warn: () => {}, info: () => {} };
    const api = await startApiServer(config, {
      delegations,
      definitions: registry,
      logger: quiet,
      ...(options.events === undefined ? {} : { events: options.events }),
    });
    stops.unshift(() => api.close());
    return { api, delegations, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
