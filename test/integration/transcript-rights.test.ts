/**
 * Reading a transcript follows the owner-or-admin rule of fork, with auth on, on real
 * Temporal: the global dev server, a real worker on its own task queue, real HTTP on loopback
 * through startApiServer, and the typed client over it. A reader (no roles) and a user who did
 * not start the work see summaries and the cards they may decide; the owner (no admin role) and
 * an admin read everything. The README holds a marker that reaches the transcript only through
 * a tool result, so a summary that still carries it anywhere has leaked the transcript.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/api/http/auth.js';
import { createDeputyClient, DeputyClientError } from '../../src/client/index.js';
import type {
  ApprovalCard,
  DelegationEvent,
  DelegationState,
} from '../../src/shared/delegation.js';
import type { SessionState } from '../../src/shared/session.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { readEventStream } from '../support/event-stream.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { leadAgent, readerAgent } from './support/session-agents.js';

const MARKER = 'ZEBRA-7-LEDGER';

const TOKENS = {
  alice: 'tok-transcript-alice', // admin
  bob: 'tok-transcript-bob', // starts the work; no admin role
  carol: 'tok-transcript-carol', // a reader: no roles
  dan: 'tok-transcript-dan', // another user with a role, not an admin
} as const;
type Who = keyof typeof TOKENS;

const auth = createAuth(
  {
    auth: {
      tokens: {
        T_ALICE: { user: 'alice', roles: ['admin'] },
        T_BOB: { user: 'bob', roles: ['ops'] },
        T_CAROL: { user: 'carol', roles: [] },
        T_DAN: { user: 'dan', roles: ['ops'] },
      },
    },
  },
  { T_ALICE: TOKENS.alice, T_BOB: TOKENS.bob, T_CAROL: TOKENS.carol, T_DAN: TOKENS.dan },
);

let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  harness = await createHarness({
    ...readerAgent,
    ...leadAgent(`  - text: Asking the reader.
    toolCalls: [{ name: Task, arguments: { description: read README, prompt: Read README.md, subagent_type: reader } }]
  - text: "Done. \${lastToolResult}"
`),
    'README.md': `The plan is ${MARKER}.\n`,
    '.subagents/agents/peeker.md':
      '---\nname: peeker\ndescription: reads outside the workspace\nmodel: scripted:scripts/peeker.yaml\ntools: [read]\n---\nYou peek.\n',
    'scripts/peeker.yaml': `turns:
  - text: Looking outside.
    toolCalls: [{ name: read, arguments: { path: ../outside.txt } }]
  - text: Done looking.
`,
  });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    {
      delegations: harness.delegations,
      sessions: harness.sessions,
      definitions: harness.registry,
      auth,
      events: { pollMs: 100 },
    },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

async function call(who: Who, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${TOKENS[who]}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // An event stream's text is not JSON, nor is a HEAD's empty body: both read as `{}`.
  const json = response.headers.get('content-type')?.includes('application/json') === true;
  return {
    status: response.status,
    body: (json && text !== '' ? JSON.parse(text) : {}) as Record<string, unknown>,
    text,
  };
}

/** The events of a stream as `who` reads them: until `finished`, or until `until` says so. */
async function eventsAs(
  who: Who,
  path: string,
  until: (event: DelegationEvent) => boolean = () => false,
): Promise<DelegationEvent[]> {
  const abort = new AbortController();
  const response = await fetch(`${server.url}${path}`, {
    headers: { Authorization: `Bearer ${TOKENS[who]}` },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const seen: DelegationEvent[] = [];
  const done = new Error('done');
  try {
    await readEventStream<DelegationEvent>(response, (event) => {
      seen.push(event);
      if (event.type === 'finished' || until(event)) throw done;
    });
  } catch (error) {
    if (error !== done) throw error;
  } finally {
    abort.abort();
  }
  return seen;
}

const session = () => `transcripts-${randomUUID().slice(0, 8)}`;

/** Starts `agent` as `who` and waits until its state is `status`. */
async function startAs(who: Who, agent: string, status: DelegationState['status']) {
  const inSession = session();
  const started = await call(who, 'POST', '/delegations', {
    agent,
    task: 'Read the README',
    session: inSession,
  });
  expect(started.status).toBe(201);
  const id = started.body.delegationId as string;
  await eventually(async () => {
    const { body } = await call('alice', 'GET', `/delegations/${id}`);
    return body.status === status ? body : undefined;
  }, `${agent} ${status}`);
  return { id, session: inSession };
}

const refusal = (what: string) => ({
  error: 'forbidden',
  code: 'forbidden',
  message: `reading the events of ${what} (its transcript, tool results, messages and answers) needs the 'admin' role or being the user who started it`,
});

describe("a delegation's transcript", () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await startAs('bob', 'reader', 'completed'));
  });

  it('is read in full by its owner (no admin role) and by an admin', async () => {
    for (const who of ['bob', 'alice'] as const) {
      const { status, body, text } = await call(who, 'GET', `/delegations/${id}`);
      expect(status).toBe(200);
      expect(body.withheld).toBeUndefined();
      expect((body.transcriptSummary as string[]).length).toBeGreaterThan(0);
      expect((body.result as { text: string }).text).toContain(MARKER);
      expect(text).toContain(MARKER);

      const events = await eventsAs(who, `/delegations/${id}/events`);
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(['started', 'model-turn', 'tool-call', 'finished']),
      );
      expect(JSON.stringify(events)).toContain(MARKER);
    }
  });

  it('is a summary without the transcript for a reader and for another non-admin user', async () => {
    for (const who of ['carol', 'dan'] as const) {
      const { status, body, text } = await call(who, 'GET', `/delegations/${id}`);
      expect(status).toBe(200);
      expect(text).not.toContain(MARKER);
      expect(body).toMatchObject({
        delegationId: id,
        agent: 'reader',
        status: 'completed',
        roundsUsed: 2,
        transcriptSummary: [],
        deniedCalls: [],
        result: { status: 'completed', text: '', deniedCalls: [], roundsUsed: 2 },
        withheld: {
          message: `reading the transcript, tool results, messages and answers of delegation ${id} needs the 'admin' role or being the user who started it; this answer is its summary`,
          fields: expect.arrayContaining(['transcriptSummary', 'result.text']),
        },
      });
      // What a dashboard shows stays: tokens, the model, the definition that ran.
      expect(body.usage).toMatchObject({ modelCalls: 2 });
      expect(body.model).toEqual(expect.any(String));
    }
  });

  it('streams its events to nobody else: 403 naming the rule, for GET and HEAD alike', async () => {
    for (const who of ['carol', 'dan'] as const) {
      const refused = await call(who, 'GET', `/delegations/${id}/events`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(refusal(`delegation ${id}`));
      expect(refused.text).not.toContain(MARKER);
      expect((await call(who, 'HEAD', `/delegations/${id}/events`)).status).toBe(403);
      // Resuming is the same read.
      expect((await call(who, 'GET', `/delegations/${id}/events?after=1`)).status).toBe(403);
    }
    // An id that names nothing is still 404, whoever asks.
    expect((await call('carol', 'GET', '/delegations/d-nosuchdelegation/events')).status).toBe(404);
    expect((await call('carol', 'GET', '/delegations/d-nosuchdelegation')).status).toBe(404);
  });

  it('stays listed for everyone: the listing is a summary', async () => {
    const { status, body } = await call('carol', 'GET', '/delegations?agent=reader');
    expect(status).toBe(200);
    const row = (body.delegations as Array<{ delegationId: string }>).find(
      (entry) => entry.delegationId === id,
    );
    expect(row).toMatchObject({ status: 'completed', task: 'Read the README' });
  });

  it('reaches the typed client the same way: summary and 403 for a reader, all for the owner', async () => {
    const reader = createDeputyClient({ url: server.url, token: TOKENS.carol });
    const state = await reader.delegations.get(id);
    expect(state.withheld?.fields).toContain('transcriptSummary');
    expect(state.result?.text).toBe('');
    const refused = await (async () => {
      for await (const event of reader.delegations.events(id, { retries: 0 })) void event;
    })().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DeputyClientError);
    expect(refused).toMatchObject({ status: 403, code: 'forbidden' });

    const owner = createDeputyClient({ url: server.url, token: TOKENS.bob });
    expect((await owner.delegations.get(id)).result?.text).toContain(MARKER);
    const types: string[] = [];
    for await (const event of owner.delegations.events(id)) types.push(event.type);
    expect(types.at(-1)).toBe('finished');
  });
});

describe('the cards of a delegation someone else started', () => {
  it('are visible with their arguments where anyone may decide them (read), hidden otherwise', async () => {
    const write = await startAs('alice', 'demo', 'parked');
    const read = await startAs('alice', 'peeker', 'parked');

    // The write card: alice's to decide, so bob and carol see neither it nor its arguments.
    const writeCards = await call('alice', 'GET', `/sessions/${write.session}/cards`);
    const [writeCard] = writeCards.body.cards as ApprovalCard[];
    expect(writeCard?.tool).toBe('write');
    for (const who of ['bob', 'carol'] as const) {
      expect((await call(who, 'GET', `/sessions/${write.session}/cards`)).body.cards).toEqual([]);
      const state = await call(who, 'GET', `/delegations/${write.id}`);
      expect(state.body).toMatchObject({ status: 'parked', pendingCards: [] });
      expect(state.text).not.toContain(JSON.stringify(writeCard?.arguments));
    }
    const full = await call('alice', 'GET', `/delegations/${write.id}`);
    expect(full.body.pendingCards).toEqual([writeCard]);

    // The read card: anyone may decide it, so a reader sees it, arguments and all.
    const readCards = await call('carol', 'GET', `/sessions/${read.session}/cards`);
    const [readCard] = readCards.body.cards as ApprovalCard[];
    expect(readCard).toMatchObject({ tool: 'read', arguments: { path: '../outside.txt' } });
    const readerState = await call('carol', 'GET', `/delegations/${read.id}`);
    expect(readerState.body.pendingCards).toEqual([readCard]);
    expect(readerState.body.withheld).toBeDefined();

    for (const id of [write.id, read.id]) {
      expect((await call('alice', 'POST', `/delegations/${id}/stop`)).status).toBe(200);
    }
  });
});

describe("a session's messages", () => {
  let sessionId: string;
  beforeAll(async () => {
    const started = await call('bob', 'POST', '/sessions', {
      agent: 'lead',
      message: 'What does the README plan?',
    });
    expect(started.status).toBe(201);
    sessionId = started.body.sessionId as string;
    await eventually(async () => {
      const { body } = await call('bob', 'GET', `/sessions/${sessionId}`);
      return body.status === 'idle' ? body : undefined;
    }, 'the session to answer');
  });

  afterAll(async () => {
    if (sessionId !== undefined) await call('alice', 'POST', `/sessions/${sessionId}/stop`);
  });

  it('are read in full by its owner and an admin: state and event stream', async () => {
    for (const who of ['bob', 'alice'] as const) {
      const { status, body, text } = await call(who, 'GET', `/sessions/${sessionId}`);
      expect(status).toBe(200);
      expect(body.withheld).toBeUndefined();
      expect(text).toContain(MARKER);
      const [task] = (body as unknown as SessionState).tasks;
      expect(task?.lastText).toContain(MARKER);

      const events = await eventsAs(who, `/sessions/${sessionId}/events`, (event) => {
        return event.type === 'reply';
      });
      const message = events.find((event) => event.type === 'message');
      expect(message).toMatchObject({ text: 'What does the README plan?', from: 'bob' });
      expect(events.find((event) => event.type === 'reply')).toMatchObject({
        text: expect.stringContaining(MARKER),
      });
    }
  });

  it('are withheld from a reader: the state is a summary, the stream 403', async () => {
    const { status, body, text } = await call('carol', 'GET', `/sessions/${sessionId}`);
    expect(status).toBe(200);
    expect(text).not.toContain(MARKER);
    expect(text).not.toContain('What does the README plan?');
    expect(body).toMatchObject({
      kind: 'session',
      status: 'idle',
      transcriptSummary: [],
      tasks: [{ agent: 'reader', status: 'completed', lastText: '' }],
      withheld: {
        message: `reading the transcript, tool results, messages and answers of session ${sessionId} needs the 'admin' role or being the user who started it; this answer is its summary`,
        fields: expect.arrayContaining(['tasks[].lastText']),
      },
    });

    const refused = await call('carol', 'GET', `/sessions/${sessionId}/events`);
    expect(refused).toMatchObject({ status: 403, body: refusal(`session ${sessionId}`) });
    expect((await call('carol', 'HEAD', `/sessions/${sessionId}/events`)).status).toBe(403);
    // The same session asked for as a delegation is the same summary and the same refusal.
    const asDelegation = await call('carol', 'GET', `/delegations/${sessionId}`);
    expect(asDelegation.status).toBe(200);
    expect(asDelegation.text).not.toContain(MARKER);
    expect((await call('carol', 'GET', `/delegations/${sessionId}/events`)).status).toBe(403);
    // Its child, started by the session for bob, is bob's too.
    const [task] = (body as unknown as SessionState).tasks;
    const child = await call('carol', 'GET', `/delegations/${task!.taskId}`);
    expect(child.status).toBe(200);
    expect(child.text).not.toContain(MARKER);
    expect((await call('carol', 'GET', `/delegations/${task!.taskId}/events`)).status).toBe(403);
    expect((await call('bob', 'GET', `/delegations/${task!.taskId}`)).text).toContain(MARKER);
  });
});
