/**
 * Sessions and nested delegation (RUN-7, POL-2, POL-4) on a real dev server with scripted
 * models: a main agent delegates in the foreground and in the background; the background
 * child's card reaches the session's stream and is decided from there; TaskOutput, TaskStop and
 * stopping the session behave as the spec says.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DelegationEvent } from '../../src/shared/delegation.js';
import { eventually, createHarness, type Harness } from './support/harness.js';
import {
  FOREGROUND_THEN_BACKGROUND,
  leadAgent,
  readerAgent,
  writerAgent,
} from './support/session-agents.js';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness({
    ...readerAgent,
    ...writerAgent,
    ...leadAgent(FOREGROUND_THEN_BACKGROUND),
  });
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

async function eventsOf(sessionId: string): Promise<DelegationEvent[]> {
  return harness.sessions.events(sessionId, 0);
}

describe('a session', () => {
  it('delegates in the foreground and the background, and a child card is decided from the session', async () => {
    const { sessionId } = await harness.sessions.start({
      agent: 'lead',
      message: 'Do the work.',
      caller: { id: null, roles: [] },
      options: {},
    });

    const opened = await eventually(async () => {
      const events = await eventsOf(sessionId);
      return events.find((event) => event.type === 'card-opened');
    }, 'the writer card on the session stream');
    if (opened.type !== 'card-opened') throw new Error('unreachable');
    expect(opened.card.agent).toBe('writer');
    expect(opened.card.session).toBe(sessionId);
    expect(opened.card.delegationId).not.toBe(sessionId);

    const listed = await harness.sessions.cards(sessionId);
    expect(listed.map((card) => card.id)).toEqual([opened.card.id]);

    await harness.delegations.decide(opened.card.id, { decision: 'approve' });

    const reply = await eventually(async () => {
      const events = await eventsOf(sessionId);
      return events.find((event) => event.type === 'reply');
    }, 'the reply');
    if (reply.type !== 'reply') throw new Error('unreachable');
    expect(reply.text).toContain('Wrote out.txt.');
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('written by writer\n');

    const state = await harness.sessions.get(sessionId);
    expect(state.status).toBe('idle');
    expect(state.tasks.map((task) => [task.agent, task.background, task.status])).toEqual([
      ['reader', false, 'completed'],
      ['writer', true, 'completed'],
    ]);
    expect(state.tasks[0]?.lastText).toContain('deputy test workspace');
    const types = (await eventsOf(sessionId)).map((event) => event.type);
    expect(types.filter((type) => type === 'task-started')).toHaveLength(2);
    expect(types.filter((type) => type === 'task-finished')).toHaveLength(2);
    expect(types).toContain('card-decided');

    await harness.sessions.stop(sessionId);
  }, 90_000);
});
