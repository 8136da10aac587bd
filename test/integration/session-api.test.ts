/**
 * The session routes over real HTTP on loopback, on the global dev server with a
 * real worker: start a scripted main agent, follow its stream, decide a child's card from the
 * session, message it, stop it. Every model is scripted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegationEvent } from '../../src/shared/delegation.js';
import type { SessionState } from '../../src/shared/session.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { readEventStream } from '../support/event-stream.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import {
  FOREGROUND_THEN_BACKGROUND,
  leadAgent,
  readerAgent,
  writerAgent,
} from './support/session-agents.js';
import { jsonCaller } from './support/app-request.js';

let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  harness = await createHarness({
    ...readerAgent,
    ...writerAgent,
    ...leadAgent(FOREGROUND_THEN_BACKGROUND),
    // The writer again, but declaring `background: true`.
    '.subagents/agents/night-writer.md':
      '---\nname: night-writer\ndescription: Writes out.txt overnight\nmodel: scripted:scripts/writer.yaml\ntools: [write]\napprovalMode: confirm\nbackground: true\n---\nWrite.\n',
    // Starts the writer in the background and answers at once: the writer parks on its card.
    ...{
      '.subagents/agents/starter.md':
        '---\nname: starter\ndescription: Starts the writer and returns\nmodel: scripted:scripts/starter.yaml\ntools: [Task]\n---\nStart.\n',
      'scripts/starter.yaml': `turns:
  - text: Starting the writer.
    toolCalls: [{ name: Task, arguments: { description: write out, prompt: Write out.txt, subagent_type: writer, run_in_background: true } }]
  - text: The writer runs in the background.
`,
    },
  });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    {
      delegations: harness.delegations,
      sessions: harness.sessions,
      definitions: harness.registry,
      events: { pollMs: 100 },
    },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

const call = jsonCaller(() => server.url);

type StreamEvent = DelegationEvent & { replayed?: boolean };

/**
 * Follows `/sessions/:id/events`, calling `step` with each event until it returns true; then
 * closes the stream (a session's stream only ends when the session does).
 */
async function follow(
  sessionId: string,
  step: (event: StreamEvent, seen: StreamEvent[]) => Promise<boolean> | boolean,
): Promise<StreamEvent[]> {
  const abort = new AbortController();
  const seen: StreamEvent[] = [];
  const response = await fetch(`${server.url}/sessions/${sessionId}/events`, {
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const done = new Error('done');
  try {
    await readEventStream<StreamEvent>(response, async (event) => {
      seen.push(event);
      if (await step(event, seen)) throw done;
    });
  } catch (error) {
    if (error !== done) throw error;
  } finally {
    abort.abort();
  }
  return seen;
}

describe('the session routes', () => {
  it('start a session whose child card is streamed on the session and decided from there', async () => {
    const started = await call('POST', '/sessions', { agent: 'lead', message: 'Do the work.' });
    expect(started.status).toBe(201);
    const sessionId = started.body.sessionId as string;
    expect(sessionId).toMatch(/^s-[a-z0-9]{12}$/);
    expect(started.body.links).toMatchObject({ events: `/sessions/${sessionId}/events` });

    const seen = await follow(sessionId, async (event) => {
      if (event.type === 'card-opened') {
        expect(event.card.agent).toBe('writer');
        const decided = await call('POST', `/cards/${event.card.id}`, { decision: 'approve' });
        expect(decided.status).toBe(200);
      }
      return event.type === 'reply';
    });
    const types = seen.map((event) => event.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'message',
        'task-started',
        'task-finished',
        'card-opened',
        'card-decided',
        'reply',
      ]),
    );
    const reply = seen.at(-1);
    expect(reply?.type === 'reply' && reply.text).toContain('Wrote out.txt.');

    const state = await call('GET', `/sessions/${sessionId}`);
    expect(state.status).toBe(200);
    const session = state.body as unknown as SessionState;
    expect(session.kind).toBe('session');
    expect(session.status).toBe('idle');
    expect(session.tasks.map((task) => [task.agent, task.status])).toEqual([
      ['reader', 'completed'],
      ['writer', 'completed'],
    ]);

    const children = await call('GET', `/delegations?session=${sessionId}`);
    expect(
      (children.body.delegations as Array<{ agent: string }>).map((row) => row.agent).sort(),
    ).toEqual(['reader', 'writer']);

    const listed = await eventually(async () => {
      const rows = (await call('GET', '/sessions?agent=lead')).body.sessions as Array<{
        sessionId: string;
      }>;
      return rows.some((row) => row.sessionId === sessionId) ? rows : undefined;
    }, 'the session in the listing');
    expect(listed.length).toBeGreaterThan(0);

    const sent = await call('POST', `/sessions/${sessionId}/messages`, { text: 'Anything else?' });
    expect(sent.status).toBe(202);
    // The stream replays from the start: the second reply is the answer to this message.
    const second = await follow(
      sessionId,
      (_event, all) =>
        all.some((event) => event.type === 'message' && event.text === 'Anything else?') &&
        all.filter((event) => event.type === 'reply').length === 2,
    );
    expect(
      second
        .filter((event) => event.type === 'message')
        .map((event) => event.type === 'message' && event.from),
    ).toEqual([null, null]);

    const stopped = await call('POST', `/sessions/${sessionId}/stop`);
    expect(stopped.body).toEqual({ stopped: true });
    await eventually(async () => {
      const after = await call('POST', `/sessions/${sessionId}/messages`, { text: 'Still there?' });
      return after.status === 409 ? after : undefined;
    }, 'a message to a stopped session refused');
    const again = await call('POST', `/sessions/${sessionId}/stop`);
    expect(again.body).toEqual({ alreadyFinished: true, status: 'stopped' });
  }, 90_000);

  it('replays a child card that opened while nobody was attached, first on attach', async () => {
    const started = await call('POST', '/sessions', { agent: 'starter', message: 'Go.' });
    const sessionId = started.body.sessionId as string;
    const card = await eventually(async () => {
      const cards = (await call('GET', `/sessions/${sessionId}/cards`)).body.cards as Array<{
        id: string;
        agent: string;
      }>;
      return cards[0];
    }, 'the writer card pending');
    expect(card.agent).toBe('writer');

    // Attach from the end of the stream: the card's own event lies before the resume point.
    const state = (await call('GET', `/sessions/${sessionId}`)).body as unknown as SessionState;
    const abort = new AbortController();
    const response = await fetch(`${server.url}/sessions/${sessionId}/events?after=1000000`, {
      signal: abort.signal,
    });
    const first = await new Promise<StreamEvent>((resolve, reject) => {
      readEventStream<StreamEvent>(response, (event) => {
        resolve(event);
        abort.abort();
      }).catch((error: Error) => (error.name === 'AbortError' ? undefined : reject(error)));
    });
    expect(first).toMatchObject({
      type: 'card-opened',
      replayed: true,
      card: { id: card.id, agent: 'writer' },
    });
    expect(state.tasks[0]?.pendingCards).toBe(1);

    await call('POST', `/sessions/${sessionId}/stop`);
    const denied = await eventually(async () => {
      const writer = await harness.delegations.get(card.id.slice(0, card.id.lastIndexOf('.')));
      return writer.result === null ? undefined : writer;
    }, 'the writer stopped');
    expect(denied.result?.status).toBe('stopped');
    expect(denied.decidedCards[0]?.state).toMatchObject({ status: 'denied', reason: 'stopped' });
  }, 60_000);

  it('POST /delegations?wait=true returns at once for an agent that declares background: true', async () => {
    const started = await call('POST', '/delegations?wait=true', {
      agent: 'night-writer',
      task: 'Write.',
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'running', result: null });
    const id = started.body.delegationId as string;
    expect((await harness.delegations.get(id)).result).toBeNull();
    await call('POST', `/delegations/${id}/stop`);
  }, 30_000);

  it('refuses what cannot be a session, clearly', async () => {
    expect((await call('POST', '/sessions', { agent: 'nobody' })).status).toBe(404);
    expect((await call('POST', '/sessions', { sessionId: 'default' })).status).toBe(422);
    expect((await call('POST', '/sessions', { message: '   ' })).status).toBe(422);
    expect((await call('GET', '/sessions/s-doesnotexist')).status).toBe(404);
    expect((await call('POST', '/sessions/s-doesnotexist/messages', { text: 'hi' })).status).toBe(
      404,
    );
    expect((await call('POST', '/sessions/s-doesnotexist/stop')).status).toBe(404);
  }, 30_000);
});
