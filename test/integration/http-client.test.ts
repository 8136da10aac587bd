/**
 * The typed HTTP client against a real API on loopback, a real worker and
 * the global dev server: delegations with their cards, sessions, errors by code, and an event
 * iterator that survives an API restart mid-stream without losing or repeating an event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeputyClient, type DeputyClient } from '../../src/client/deputy-client.js';
import { createLocalDeputyClient, type LocalDeputyClient } from '../../src/client/local/index.js';
import { DeputyClientError } from '../../src/client/client-error.js';
import type { StreamEvent } from '../../src/client/event-iterator.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import {
  FOREGROUND_THEN_BACKGROUND,
  leadAgent,
  readerAgent,
  writerAgent,
} from './support/session-agents.js';

let harness: Harness;
let port: number;
let server: ApiServer;

function serve(): Promise<ApiServer> {
  return startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port } },
    {
      delegations: harness.delegations,
      sessions: harness.sessions,
      definitions: harness.registry,
      events: { pollMs: 50 },
    },
  );
}

beforeAll(async () => {
  harness = await createHarness({
    ...readerAgent,
    ...writerAgent,
    ...leadAgent(FOREGROUND_THEN_BACKGROUND),
  });
  port = await freePort();
  server = await serve();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

const httpClient = () => createDeputyClient({ url: `http://127.0.0.1:${port}` });
let local: LocalDeputyClient | null = null;

/** The other constructor: over the Temporal connection, the API's app in-process. */
async function localClient(): Promise<LocalDeputyClient> {
  local ??= await createLocalDeputyClient({
    config: {
      ...harness.config,
      temporal: { ...harness.config.temporal, taskQueue: harness.taskQueue },
    },
    temporal: harness.client,
  });
  return local;
}

afterAll(async () => {
  await local?.close();
});

describe.each([
  ['over HTTP', async (): Promise<DeputyClient> => httpClient()],
  ['over a Temporal connection', localClient],
])('the client %s', (_name, makeClient) => {
  let client: () => DeputyClient;
  beforeAll(async () => {
    const made = await makeClient();
    client = () => made;
  });

  it('starts a background delegation, decides its card from code and follows it to its result', async () => {
    const deputy = client();
    const started = await deputy.delegations.start({
      agent: 'writer',
      task: 'Write.',
      background: true,
    });
    expect(started).toMatchObject({ agent: 'writer', status: 'running', result: null });
    const seen: StreamEvent[] = [];
    for await (const event of started.events()) {
      seen.push(event);
      if (event.type === 'card-opened') {
        const decided = await deputy.cards.decide(event.card.id, 'approve', 'fine');
        expect(decided).toMatchObject({
          id: event.card.id,
          state: { status: 'approved', reason: 'fine' },
        });
      }
    }
    expect(seen.map((event) => event.type)).toEqual([
      'started',
      'model-turn',
      'card-opened',
      'card-decided',
      'tool-call',
      'model-turn',
      'finished',
    ]);
    const state = await started.get();
    expect(state.result).toMatchObject({ status: 'completed', text: 'Wrote out.txt.' });
    const listed = await deputy.delegations.list({ agent: 'writer' });
    expect(listed.map((row) => row.delegationId)).toContain(started.delegationId);
    expect(await started.stop()).toEqual({
      alreadyFinished: true,
      status: 'completed',
    });
  }, 60_000);

  it('starts and messages a session and follows its stream, children cards included', async () => {
    const deputy = client();
    const session = await deputy.sessions.start({ agent: 'lead', message: 'Do the work.' });
    const { sessionId, agent } = session;
    expect(agent).toBe('lead');
    let replies = 0;
    const abort = new AbortController();
    for await (const event of session.events({ signal: abort.signal })) {
      if (event.type === 'card-opened' && event.card.agent === 'writer') {
        expect((await deputy.cards.list(sessionId)).map((card) => card.id)).toContain(
          event.card.id,
        );
        // The inbox, filtered to this session, holds the same card.
        const inbox = await deputy.cards.pending({ session: sessionId });
        expect(inbox.map((card) => card.id)).toContain(event.card.id);
        expect(inbox.every((card) => card.session === sessionId)).toBe(true);
        await deputy.cards.decide(event.card.id, 'approve');
      }
      if (event.type === 'reply') {
        replies += 1;
        if (replies === 1) await session.send('Anything else?');
        else abort.abort();
      }
    }
    expect(replies).toBe(2);
    const state = await deputy.sessions.get(sessionId);
    expect(state.tasks.map((task) => task.status)).toEqual(['completed', 'completed']);
    expect((await deputy.sessions.list({ agent: 'lead' })).map((row) => row.sessionId)).toContain(
      sessionId,
    );
    expect((await session.get()).status).toBe('idle');
    expect(await session.stop()).toEqual({ stopped: true });
  }, 60_000);

  it(
    'creates an agent, runs it, changes it, duplicates it and deletes both',
    () => agentsRoundTrip(client()),
    60_000,
  );

  it('throws one error class with the API code', async () => {
    const error = await client()
      .delegations.start({ agent: 'nobody', task: 'x' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeputyClientError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    const invalid = await client()
      .sessions.start({ sessionId: 'default' })
      .catch((caught: unknown) => caught);
    expect(invalid).toMatchObject({ status: 422, code: 'invalid_request' });
  }, 30_000);
});

describe('the HTTP client', () => {
  const client = httpClient;

  it('keeps following across an API restart: no event lost, none repeated', async () => {
    const deputy = client();
    const started = await deputy.delegations.start({
      agent: 'writer',
      task: 'Write again.',
      background: true,
    });
    const seen: StreamEvent[] = [];
    for await (const event of deputy.delegations.events(started.delegationId, {
      retryDelayMs: 100,
    })) {
      seen.push(event);
      if (event.type === 'card-opened') {
        // The API goes away mid-stream and comes back on the same port.
        await server.close();
        server = await serve();
        // A request at the moment of the restart may meet the old server's closed socket: the
        // client says `unreachable` (it never retries a POST by itself), and the caller retries.
        await eventually(
          () =>
            deputy.cards.decide(event.card.id, 'approve').catch((error: unknown) => {
              if (error instanceof DeputyClientError && error.code === 'unreachable')
                return undefined;
              throw error;
            }),
          'the decision through the restarted API',
        );
      }
    }
    const sequence = seen.map((event) => event.seq);
    expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
    expect(new Set(sequence).size).toBe(sequence.length);
    expect(sequence).toEqual(sequence.map((_, index) => index + 1));
    expect(seen.at(-1)).toMatchObject({ type: 'finished', result: { status: 'completed' } });
  }, 60_000);

  it('says unreachable when nothing answers', async () => {
    const nowhere = createDeputyClient({ url: `http://127.0.0.1:${await freePort()}` });
    await expect(nowhere.sessions.list()).rejects.toMatchObject({ code: 'unreachable', status: 0 });
  });
});

/** Agents through either constructor; a unique name each, as both share the workspace. */
async function agentsRoundTrip(deputy: DeputyClient): Promise<void> {
  const name = `client-made-${++agentRuns}`;
  const copyName = `client-copy-${agentRuns}`;
  const created = await deputy.agents.create({
    name: name,
    description: 'Made by the client test',
    systemPrompt: 'Answer.\n',
    model: 'scripted:scripts/reader.yaml',
    tools: ['read'],
  });
  expect(created).toMatchObject({ name: name, level: 'project', tools: ['read'] });
  expect((await deputy.agents.list()).map((agent) => agent.name)).toContain(name);

  const ran = await deputy.delegations.start({ agent: name, task: 'Read.' }, { wait: true });
  expect(ran.result).toMatchObject({
    status: 'completed',
    text: expect.stringContaining('deputy test workspace'),
  });

  const updated = await deputy.agents.update(name, {
    description: 'Changed by the client',
  });
  expect(updated.description).toBe('Changed by the client');
  expect((await deputy.agents.get(name)).systemPrompt).toBe('Answer.\n');
  const copy = await deputy.agents.duplicate(name, {
    name: copyName,
    level: 'project',
  });
  expect(copy).toMatchObject({ name: copyName, description: 'Changed by the client' });

  await deputy.agents.delete(copyName);
  await deputy.agents.delete(name);
  await expect(deputy.agents.get(name)).rejects.toMatchObject({
    status: 404,
    code: 'agent_not_found',
  });
}

let agentRuns = 0;
