import { describe, expect, it } from 'vitest';
import { invalidProblem } from '../../support/invalid-problem.js';
import type { DelegationSummary } from '../../../src/temporal/delegations/facade.js';
import { sessionDetailOf, sessionSummaryOf } from '../../../src/temporal/sessions/as-session.js';
import type { StartSessionRequest } from '../../../src/temporal/sessions/facade.js';
import {
  assertValidSessionStart,
  sessionStartOptions,
} from '../../../src/temporal/sessions/start.js';

const request: StartSessionRequest = {
  caller: { id: 'ada', roles: [] },
  options: {},
  message: 'Plan the release\nthen ship it',
};
const queues = { taskQueue: 'q', toolQueue: null };

describe('assertValidSessionStart', () => {
  it('keeps the default session for delegations started without one', () => {
    expect(invalidProblem(() => assertValidSessionStart('default', 'main', request))).toBe(
      "session id 'default' is reserved for delegations started without a session",
    );
  });

  it('names a bad id, agent or message', () => {
    expect(invalidProblem(() => assertValidSessionStart('a b', 'main', request))).toMatch(
      /^session 'a b'/,
    );
    expect(invalidProblem(() => assertValidSessionStart('s-1', 'Main', request))).toBe(
      "agent name 'Main' is not valid",
    );
    expect(
      invalidProblem(() => assertValidSessionStart('s-1', 'main', { ...request, message: ' ' })),
    ).toBe('message is empty');
    expect(() => assertValidSessionStart('s-1', 'main', request)).not.toThrow();
  });
});

describe('sessionStartOptions', () => {
  it('is its own delegation id, and its memo names it a session', () => {
    const options = sessionStartOptions(request, { sessionId: 's-1', agent: 'main' }, queues);
    expect(options).toMatchObject({
      taskQueue: 'q',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: 'session of main: Plan the release then ship it',
      args: [{ sessionId: 's-1', agent: 'main', caller: request.caller, message: request.message }],
    });
    expect(options.workflowId).toBe('session/s-1');
    expect(options.memo).toEqual({ kind: 'session', task: 'Plan the release', startedBy: 'ada' });
    const values = (options.typedSearchAttributes as Array<{ value: unknown }>).map((p) => p.value);
    expect(values.filter((value) => value === 's-1')).toHaveLength(2);
  });

  it('without a first message, and with a tool queue', () => {
    const options = sessionStartOptions(
      { caller: { id: null, roles: [] }, options: {} },
      { sessionId: 's-2', agent: 'main' },
      { taskQueue: 'q', toolQueue: 'tools-w1' },
    );
    expect(options.memo).toEqual({ kind: 'session', task: '(session)', toolQueue: 'tools-w1' });
    expect(options.args?.[0]).not.toHaveProperty('message');
    expect(options.args?.[0]).toMatchObject({ toolQueue: 'tools-w1' });
  });
});

describe('a session read through the delegation shapes', () => {
  it('lists the delegation row as a session row', () => {
    const row: DelegationSummary = {
      delegationId: 's-1',
      workflowId: 'session/s-1',
      agent: 'main',
      session: 's-1',
      status: 'running',
      pendingCards: 1,
      task: 'Plan the release',
      tokens: 12,
      startedAt: '2025-01-01T00:00:00.000Z',
      closedAt: null,
    };
    expect(sessionSummaryOf(row)).toEqual({
      sessionId: 's-1',
      workflowId: 'session/s-1',
      agent: 'main',
      status: 'running',
      pendingCards: 1,
      firstMessage: 'Plan the release',
      startedAt: '2025-01-01T00:00:00.000Z',
      closedAt: null,
    });
  });

  it('gives a state rebuilt without a worker no tasks and no queued messages', () => {
    const state = { delegationId: 's-1', toolQueue: null } as unknown as Parameters<
      typeof sessionDetailOf
    >[0];
    expect(sessionDetailOf(state)).toEqual({
      delegationId: 's-1',
      toolQueue: null,
      kind: 'session',
      tasks: [],
      queuedMessages: 0,
    });
  });
});
