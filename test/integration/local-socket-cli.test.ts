/**
 * `deputy cards` and `deputy approve` answered by a running API over its local socket
 * (src/cli/local-api.ts), on real Temporal: the global dev server, a real worker, the scripted
 * `demo` agent, and the real `deputy` command in a child process. The command's environment
 * names no Temporal server and its data directory records none, so talking to Temporal itself
 * it would exit 5: every answer below came through the socket.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localOperatorId } from '../../src/local-operator.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  harness = await createHarness({ 'README.md': '# local socket workspace\n' });
  server = await startApiServer(
    {
      ...harness.config,
      api: { host: '127.0.0.1', port: 0 },
      temporal: { ...harness.config.temporal, address: null, taskQueue: harness.taskQueue },
    },
    { delegations: harness.delegations },
  );
});

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

it('lists a parked delegation’s card and approves it, and the delegation finishes', async () => {
  const session = `sock-${randomUUID().slice(0, 8)}`;
  const handle = await harness.start('demo', 'Greet the workspace', { session });
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DEPUTY_DATA_DIR: harness.config.dataDir,
  };
  const cards = await eventually(async () => {
    const listed = await runDeputy(['cards', '--session', session, '--json'], {
      env,
      cwd: harness.workspace,
    });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const parsed = JSON.parse(listed.stdout) as ApprovalCard[];
    return parsed.length > 0 ? parsed : undefined;
  }, 'the card, listed by deputy cards');
  expect(cards).toMatchObject([{ session, agent: 'demo', tool: 'write' }]);

  const approved = await runDeputy(['approve', cards[0]!.id], { env, cwd: harness.workspace });
  expect(approved.code).toBe(0);
  expect(approved.stdout).toBe(`card ${cards[0]!.id} approved (write for demo)\n`);

  const result = await handle.result();
  expect(result.status).toBe('completed');
  expect(existsSync(join(harness.workspace, 'hello.txt'))).toBe(true);
  // Recorded as the person at this terminal, exactly as a direct `deputy approve` records it.
  const state = await harness.delegations.get(cards[0]!.delegationId);
  expect(state.decidedCards).toMatchObject([
    { id: cards[0]!.id, state: { status: 'approved', decidedBy: localOperatorId() } },
  ]);
});
