/**
 * Authoring end to end, on the real dev server and real HTTP on loopback, composed as `deputy dev`
 * composes it: one watched configuration for a worker (startWorkerRuntime, with its own watched
 * registry) and the API (startApiServer over a second registry, loaded and watched as
 * src/cli/servers/api-runtime.ts does). Everything the test does goes over HTTP with `fetch`: an agent
 * is created through the authoring API, delegated to, its write card is watched on the event
 * stream and the session's card list and approved; then the agent is edited while a delegation
 * of it is parked on a card, and the parked run keeps the revision it started with while the
 * next delegation runs the new one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { watchConfig, type ConfigWatcher } from '../../src/config/watch.js';
import {
  createRegistry,
  type DefinitionRegistry,
} from '../../src/definitions/registry/registry.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import type {
  ApprovalCard,
  DelegationEvent,
  DelegationState,
} from '../../src/shared/delegation.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { startWorkerRuntime, type WorkerRuntime } from '../../src/worker/worker.js';
import { eventually, workflowBundle, writeFiles } from './support/harness.js';
import { readEventStream } from '../support/event-stream.js';
import { jsonCaller } from './support/app-request.js';

/** Reads input.txt, asks to write copy-<version>.txt with what it read, then says it is done. */
const copierScript = (version: string) => `turns:
  - text: Reading the input.
    toolCalls: [{ name: read, arguments: { path: input.txt } }]
  - text: Writing the copy.
    toolCalls:
      - name: write
        arguments: { path: copy-${version}.txt, content: "${version} copy of: \${lastToolResult}\\n" }
  - text: Done, ${version}.
`;

/** What `read` answers for a one-line file: the numbered line (src/tools/file-system.ts). */
const INPUT_LINE = 'the quick brown fox';
const readOf = (line: string) => `     1\t${line}`;

let workspace: string;
let settings: ConfigWatcher;
let worker: WorkerRuntime;
let registry: DefinitionRegistry;
let connection: Connection;
let server: ApiServer;

beforeAll(async () => {
  const address = inject('temporalAddress');
  workspace = await writeFiles(await mkdtemp(join(tmpdir(), 'deputy-authoring-e2e-')), {
    'input.txt': `${INPUT_LINE}\n`,
    'scripts/copier-v1.yaml': copierScript('v1'),
    'scripts/copier-v2.yaml': copierScript('v2'),
  });
  const env = { DEPUTY_USER_DIR: join(workspace, '.user-config') };
  const config = loadConfig({ workspace, temporalAddress: address }, env);
  // One watcher for the worker and the API, as `deputy dev` has.
  settings = watchConfig(config, { env });
  await settings.ready;
  const taskQueue = `test-${randomUUID()}`;
  worker = await startWorkerRuntime(settings, address, {
    taskQueue,
    workflowBundle: await workflowBundle(),
  });
  // The API's own registry, loaded and watched as startApi (src/cli/servers/api-runtime.ts) does.
  registry = createRegistry({ config, models: () => settings.current().models });
  await registry.load();
  await registry.watch();
  connection = await Connection.connect({ address });
  const delegations = createDelegations(new Client({ connection }), {
    namespace: config.temporal.namespace,
    taskQueue,
  });
  server = await startApiServer(
    { ...config, api: { host: '127.0.0.1', port: 0 } },
    { settings, delegations, definitions: registry, events: { pollMs: 100 } },
  );
});

afterAll(async () => {
  await server?.close();
  await registry?.close();
  await connection?.close();
  await worker?.stop();
  await settings?.close();
});

type Json = Record<string, unknown>;

const call = jsonCaller(() => server.url);

const agentFile = () => join(workspace, '.subagents', 'agents', 'copier.md');
const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

async function delegate(session: string, task: string): Promise<string> {
  const started = await call('POST', '/delegations', { agent: 'copier', task, session });
  expect(started.status).toBe(201);
  expect(started.body).toMatchObject({ agent: 'copier', session, status: 'running' });
  return started.body.delegationId as string;
}

async function sessionCards(session: string): Promise<ApprovalCard[]> {
  const listed = await call('GET', `/sessions/${session}/cards`);
  expect(listed.status).toBe(200);
  return listed.body.cards as ApprovalCard[];
}

async function finished(id: string): Promise<DelegationState> {
  return eventually(async () => {
    const { body } = await call('GET', `/delegations/${id}`);
    const state = body as unknown as DelegationState;
    return state.result === null ? undefined : state;
  }, `delegation ${id} to finish`);
}

describe('authoring an agent over HTTP and running it (end to end)', () => {
  it('creates an agent, delegates to it, approves its card from the stream and sees the write', async () => {
    const created = await call('POST', '/workspace/agents', {
      name: 'copier',
      description: 'Copies input.txt (v1)',
      systemPrompt: 'You copy input.txt into copy-v1.txt.\n',
      scope: 'workspace',
      model: 'scripted:scripts/copier-v1.yaml',
      tools: ['read', 'write'],
      approvalMode: 'confirm',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ok: true,
      agent: { name: 'copier', level: 'project', filePath: agentFile() },
    });
    const fileHash = sha256(readFileSync(agentFile()));
    expect((created.body.agent as Json).contentHash).toBe(fileHash);

    const session = `e2e-${randomUUID().slice(0, 8)}`;
    const id = await delegate(session, 'Copy input.txt');
    const events = await fetch(`${server.url}/delegations/${id}/events`);
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const seen: DelegationEvent[] = [];
    let decided: Json | undefined;
    await readEventStream<DelegationEvent>(events, async (event, name) => {
      expect(name).toBe(event.type);
      seen.push(event);
      if (event.type !== 'card-opened') return;
      expect(event.card).toMatchObject({
        delegationId: id,
        session,
        agent: 'copier',
        tool: 'write',
        arguments: { path: 'copy-v1.txt' },
        state: { status: 'pending' },
      });
      // The same card, pending, in the session's list.
      expect((await sessionCards(session)).map((card) => card.id)).toEqual([event.card.id]);
      expect(existsSync(join(workspace, 'copy-v1.txt'))).toBe(false);
      const approved = await call('POST', `/cards/${event.card.id}`, {
        decision: 'approve',
        reason: 'looks right',
      });
      expect(approved.status).toBe(200);
      decided = approved.body;
    });
    expect(decided).toMatchObject({ state: { status: 'approved', reason: 'looks right' } });
    expect(seen.map((event) => event.type)).toEqual([
      'started',
      'model-turn',
      'tool-call',
      'model-turn',
      'card-opened',
      'card-decided',
      'tool-call',
      'model-turn',
      'finished',
    ]);
    expect(seen[0]).toMatchObject({ agent: 'copier', model: 'scripted:scripts/copier-v1.yaml' });
    expect(seen[2]).toMatchObject({ tool: 'read', verdict: 'allow' });
    expect(seen[6]).toMatchObject({ tool: 'write', verdict: 'ask:approved' });

    const state = await finished(id);
    expect(state).toMatchObject({
      status: 'completed',
      agent: 'copier',
      definitionHash: fileHash,
      pendingCards: [],
      deniedCalls: [],
      result: { status: 'completed', text: 'Done, v1.' },
    });
    expect(readFileSync(join(workspace, 'copy-v1.txt'), 'utf8')).toBe(
      `v1 copy of: ${readOf(INPUT_LINE)}\n`,
    );
    expect(await sessionCards(session)).toEqual([]);
  });

  it('edits the agent while a run of it waits on a card: that run keeps its revision, the next one uses the edit', async () => {
    // The agent of the test before; made here when this test runs alone.
    if ((await call('GET', '/workspace/agents/copier')).status === 404) {
      expect(
        (
          await call('POST', '/workspace/agents', {
            name: 'copier',
            description: 'Copies input.txt (v1)',
            systemPrompt: 'You copy input.txt into copy-v1.txt.\n',
            scope: 'workspace',
            model: 'scripted:scripts/copier-v1.yaml',
            tools: ['read', 'write'],
            approvalMode: 'confirm',
          })
        ).status,
      ).toBe(201);
    }
    const before = readFileSync(agentFile());
    const hashBefore = sha256(before);

    const session = `e2e-${randomUUID().slice(0, 8)}`;
    const parkedId = await delegate(session, 'Copy input.txt again');
    const [card] = await eventually(async () => {
      const cards = await sessionCards(session);
      return cards.length > 0 ? cards : undefined;
    }, 'the parked run to open its card');
    expect(card).toMatchObject({ delegationId: parkedId, tool: 'write' });
    const parked = await call('GET', `/delegations/${parkedId}`);
    expect(parked.body).toMatchObject({
      status: 'parked',
      definitionHash: hashBefore,
      pendingCards: [{ id: card!.id }],
    });

    // The edit, while that run waits: new description, prompt and script (PATCH; the SDK's
    // POST is the same route, test/api/qwen-sdk-compat.test.ts).
    const edited = await call('PATCH', '/workspace/agents/copier', {
      description: 'Copies input.txt (v2)',
      systemPrompt: 'You copy input.txt into copy-v2.txt.\n',
      model: 'scripted:scripts/copier-v2.yaml',
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      ok: true,
      changed: true,
      agent: {
        description: 'Copies input.txt (v2)',
        systemPrompt: 'You copy input.txt into copy-v2.txt.\n',
        model: 'scripted:scripts/copier-v2.yaml',
      },
    });
    const hashAfter = sha256(readFileSync(agentFile()));
    expect(hashAfter).not.toBe(hashBefore);
    expect((edited.body.agent as Json).contentHash).toBe(hashAfter);
    // The old file is kept as a revision.
    const revisions = await call('GET', '/workspace/agents/copier/revisions');
    expect(
      (revisions.body.revisions as Array<{ contentHash: string }>).map((r) => r.contentHash),
    ).toContain(hashBefore);

    // Approved after the edit: the parked run finishes on the revision it started with, its
    // last model turn included (the v1 script's final text).
    expect((await call('POST', `/cards/${card!.id}`, { decision: 'approve' })).status).toBe(200);
    const old = await finished(parkedId);
    expect(old).toMatchObject({
      status: 'completed',
      definitionHash: hashBefore,
      model: 'scripted:scripts/copier-v1.yaml (scripted model)',
      result: { status: 'completed', text: 'Done, v1.' },
    });
    expect(existsSync(join(workspace, 'copy-v2.txt'))).toBe(false);

    // The next delegation resolves the edited file: new hash, new script, new behaviour.
    const nextId = await delegate(session, 'Copy input.txt, new version');
    const [nextCard] = await eventually(async () => {
      const cards = await sessionCards(session);
      return cards.length > 0 ? cards : undefined;
    }, 'the next run to open its card');
    expect(nextCard).toMatchObject({
      delegationId: nextId,
      tool: 'write',
      arguments: { path: 'copy-v2.txt' },
    });
    expect((await call('POST', `/cards/${nextCard!.id}`, { decision: 'approve' })).status).toBe(
      200,
    );
    const next = await finished(nextId);
    expect(next).toMatchObject({
      status: 'completed',
      definitionHash: hashAfter,
      model: 'scripted:scripts/copier-v2.yaml (scripted model)',
      result: { status: 'completed', text: 'Done, v2.' },
    });
    expect(readFileSync(join(workspace, 'copy-v2.txt'), 'utf8')).toBe(
      `v2 copy of: ${readOf(INPUT_LINE)}\n`,
    );
  });
});
