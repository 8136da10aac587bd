/**
 * Allow for the rest of the session (docs/policy.md) on the real dev server, over
 * HTTP: a session's Task child asks before writing note.txt twice; approving the first card
 * with `allow: 'session'` lets the second write run without a card, and a later child of the
 * same session writes without one too; revoked on the session, the next child asks again. A
 * card of a delegation outside a session refuses `allow: 'session'` (a 422; the typed client and
 * `deputy approve --allow-session` are told why).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeputyClient } from '../../src/client/deputy-client.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import type { DelegationEvent, DelegationState } from '../../src/shared/delegation.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { jsonCaller } from './support/app-request.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const TASK = (n: number) =>
  `  - text: Asking the writer (${n}).\n    toolCalls: [{ name: Task, arguments: { description: write twice, prompt: Write note.txt twice, subagent_type: twice } }]\n  - text: "Done ${n}: \${lastToolResult}"\n`;

let harness: Harness;
let server: ApiServer;
let baseUrl = '';
const call = jsonCaller(() => baseUrl);

beforeAll(async () => {
  harness = await createHarness({
    '.subagents/agents/twice.md':
      '---\nname: twice\ndescription: writes note.txt twice (asks first)\nmodel: scripted:scripts/twice.yaml\ntools: [write]\napprovalMode: confirm\n---\nWrite.\n',
    'scripts/twice.yaml': `turns:
  - text: Writing once.
    toolCalls: [{ name: write, arguments: { path: note.txt, content: "one\\n" } }]
  - text: Writing again.
    toolCalls: [{ name: write, arguments: { path: note.txt, content: "two\\n" } }]
  - text: Wrote twice.
`,
    '.subagents/agents/granter.md':
      '---\nname: granter\ndescription: hands writes to twice\nmodel: scripted:scripts/granter.yaml\ntools: [Task]\nmaxTurns: 20\n---\nLead.\n',
    'scripts/granter.yaml': `turns:\n${TASK(1)}${TASK(2)}${TASK(3)}`,
    // A background writer first, then a foreground one: the second's grant reaches the first.
    '.subagents/agents/pair.md':
      '---\nname: pair\ndescription: two writers at once\nmodel: scripted:scripts/pair.yaml\ntools: [Task]\nmaxTurns: 20\n---\nLead.\n',
    'scripts/pair.yaml': `turns:
  - text: Starting the background writer.
    toolCalls: [{ name: Task, arguments: { description: write twice, prompt: Write note.txt twice, subagent_type: twice, run_in_background: true } }]
  - text: Asking the foreground writer.
    toolCalls: [{ name: Task, arguments: { description: write twice, prompt: Write note.txt twice, subagent_type: twice } }]
  - text: Both asked.
`,
  });
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port } },
    { delegations: harness.delegations, sessions: harness.sessions, definitions: harness.registry },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

async function eventsOf(sessionId: string): Promise<DelegationEvent[]> {
  return harness.sessions.events(sessionId, 0);
}

function ofType<T extends DelegationEvent['type']>(events: DelegationEvent[], type: T) {
  return events.filter(
    (event): event is Extract<DelegationEvent, { type: T }> => event.type === type,
  );
}

/** Waits for the session's `count`th reply. */
async function replies(sessionId: string, count: number) {
  return eventually(
    async () => {
      const found = ofType(await eventsOf(sessionId), 'reply');
      return found.length >= count ? found : undefined;
    },
    `reply ${count}`,
    60_000,
  );
}

/** Waits for the session stream's `count`th card. */
async function cardsOpened(sessionId: string, count: number) {
  return eventually(
    async () => {
      const found = ofType(await eventsOf(sessionId), 'card-opened');
      return found.length >= count ? found : undefined;
    },
    `card ${count}`,
    60_000,
  );
}

describe('allow for the rest of the session', () => {
  it('covers the child’s second write and a later child’s; revoked on the session, asks again', async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'granter',
      message: 'Write it.',
      caller: { id: null, roles: [] },
      options: {},
    });
    const [first] = await cardsOpened(sessionId, 1);
    expect(first!.card.delegationId).not.toBe(sessionId);
    const approved = await call('POST', `/cards/${first!.card.id}`, {
      decision: 'approve',
      allow: 'session',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const [reply] = await replies(sessionId, 1);
    expect(reply!.text).toContain('Done 1');
    expect(await readFile(join(harness.workspace, 'note.txt'), 'utf8')).toBe('two\n');
    // One card for two writes; the session holds the grant.
    expect(ofType(await eventsOf(sessionId), 'card-opened')).toHaveLength(1);
    const state = (await call('GET', `/sessions/${sessionId}`)).body as unknown as DelegationState;
    expect(state.grants).toMatchObject([
      {
        n: 1,
        tool: 'write',
        for: 'session',
        cardId: first!.card.id,
        delegationId: first!.card.delegationId,
        scope: { kind: 'paths', paths: [join(harness.workspace, 'note.txt')] },
      },
    ]);

    // A child started later gets the grant at its start: no card.
    await harness.sessions.send(sessionId, { text: 'Again.', from: null });
    await replies(sessionId, 2);
    expect(ofType(await eventsOf(sessionId), 'card-opened')).toHaveLength(1);

    // Revoked on the session: the next child asks again.
    const revoked = await call('DELETE', `/sessions/${sessionId}/grants/1`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ grant: { n: 1, for: 'session', revoked: {} } });
    await harness.sessions.send(sessionId, { text: 'Once more.', from: null });
    const opened = await cardsOpened(sessionId, 2);
    expect(opened[1]!.card.arguments).toMatchObject({ path: 'note.txt' });
    expect(
      (await call('POST', `/cards/${opened[1]!.card.id}`, { decision: 'approve' })).status,
    ).toBe(200);
    await cardsOpened(sessionId, 3);
    await call('POST', `/sessions/${sessionId}/stop`);
  }, 180_000);

  it('reaches a child already running: its next call is covered', async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'pair',
      message: 'Write it, both of you.',
      caller: { id: null, roles: [] },
      options: {},
    });
    const opened = await cardsOpened(sessionId, 2);
    const state = await harness.sessions.get(sessionId);
    const background = state.tasks.find((task) => task.background)!;
    const early = opened.find((event) => event.card.delegationId === background.taskId)!;
    const late = opened.find((event) => event.card.delegationId !== background.taskId)!;
    // The foreground child's card, for the rest of the session; the background child's card was
    // open already, so it is approved on its own.
    expect(
      (await call('POST', `/cards/${late.card.id}`, { decision: 'approve', allow: 'session' }))
        .status,
    ).toBe(200);
    await replies(sessionId, 1);
    expect((await call('POST', `/cards/${early.card.id}`, { decision: 'approve' })).status).toBe(
      200,
    );
    // Its second write runs under the grant the session sent it: no third card.
    await eventually(
      async () => {
        const current = await harness.sessions.get(sessionId);
        return current.tasks.every((task) => task.status === 'completed') ? current : undefined;
      },
      'both tasks to complete',
      60_000,
    );
    expect(ofType(await eventsOf(sessionId), 'card-opened')).toHaveLength(2);
    await call('POST', `/sessions/${sessionId}/stop`);
  }, 120_000);

  it('is refused with a 422 on a card of a delegation outside a session', async () => {
    const started = await call('POST', '/delegations?wait=true', {
      agent: 'twice',
      task: 'Write note.txt twice',
      session: `sg-${randomUUID().slice(0, 8)}`,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const delegationId = started.body.delegationId as string;
    const [card] = (started.body.state as DelegationState).pendingCards;
    const refused = await call('POST', `/cards/${card!.id}`, {
      decision: 'approve',
      allow: 'session',
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('not in a session');
    // The typed client and the CLI are told the same.
    const client = createDeputyClient({ url: baseUrl });
    await expect(client.cards.decide(card!.id, 'approve', { allow: 'session' })).rejects.toThrow(
      /not in a session/,
    );
    const approved = await runDeputy(['approve', card!.id, '--allow-session'], {
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: harness.address,
        DEPUTY_TASK_QUEUE: harness.taskQueue,
        DEPUTY_WORKSPACE: harness.workspace,
        DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
      },
      cwd: harness.workspace,
    });
    expect(approved.code).not.toBe(0);
    expect(approved.stderr).toContain('not in a session');
    // The card is still pending and can be decided as usual.
    const state = (await call('GET', `/delegations/${delegationId}`))
      .body as unknown as DelegationState;
    expect(state.pendingCards.map((pending) => pending.id)).toEqual([card!.id]);
    await call('POST', `/delegations/${delegationId}/stop`);
  }, 120_000);
});
