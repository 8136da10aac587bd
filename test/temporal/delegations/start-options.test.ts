import { describe, expect, it } from 'vitest';
import { invalidProblem } from '../../support/invalid-problem.js';
import type { StartDelegationRequest } from '../../../src/temporal/delegations/facade.js';
import {
  assertValidStart,
  delegationStartOptions,
} from '../../../src/temporal/delegations/start-delegation.js';
import {
  AGENT_ATTRIBUTE,
  DELEGATION_ID_ATTRIBUTE,
  FORKED_FROM_ATTRIBUTE,
  SESSION_ATTRIBUTE,
} from '../../../src/shared/workflow-contract/search-attributes.js';

const request: StartDelegationRequest = {
  agent: 'reviewer',
  task: 'Review the diff\nin detail',
  session: 'default',
  caller: { id: 'ada', roles: [] },
  options: { maxTokens: 1000 },
};
const ids = { delegationId: 'd-1', workflowId: 'delegation/default/d-1' };

describe('assertValidStart', () => {
  it('accepts a well-formed request', () => {
    expect(() => assertValidStart('d-1', request)).not.toThrow();
  });

  it('names the first thing wrong', () => {
    expect(invalidProblem(() => assertValidStart('a b', request))).toMatch(/^delegation id 'a b'/);
    expect(invalidProblem(() => assertValidStart('d-1', { ...request, session: "x'" }))).toMatch(
      /^session 'x''/,
    );
    expect(invalidProblem(() => assertValidStart('d-1', { ...request, agent: 'Bad Name' }))).toBe(
      "agent name 'Bad Name' is not valid",
    );
    expect(invalidProblem(() => assertValidStart('d-1', { ...request, task: '  \n' }))).toBe(
      'task is empty',
    );
    expect(
      invalidProblem(() =>
        assertValidStart('d-1', { ...request, options: { cardTimeout: 'soon' } }),
      ),
    ).toMatch(/^cardTimeout: 'soon' is not a duration/);
    expect(
      invalidProblem(() => assertValidStart('d-1', { ...request, options: { maxTokens: 0 } })),
    ).toBe('maxTokens must be a positive integer, not 0');
  });
});

describe('delegationStartOptions', () => {
  it('starts once under the id, with the input, attributes and memo others read back', () => {
    const options = delegationStartOptions(request, ids, { taskQueue: 'q', toolQueue: null });
    expect(options).toMatchObject({
      taskQueue: 'q',
      workflowId: 'delegation/default/d-1',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [
        {
          delegationId: 'd-1',
          agent: 'reviewer',
          task: request.task,
          session: 'default',
          caller: request.caller,
          options: { maxTokens: 1000 },
        },
      ],
    });
    expect(options.args?.[0]).not.toHaveProperty('toolQueue');
    // The memo holds the task's first line and the owner, nothing about queues it does not use.
    expect(options.memo).toEqual({ task: 'Review the diff', startedBy: 'ada' });
    const attributes = new Map(
      (options.typedSearchAttributes as Array<{ key: { name: string }; value: unknown }>).map(
        (pair) => [pair.key.name, pair.value],
      ),
    );
    expect(attributes.get(AGENT_ATTRIBUTE.name)).toBe('reviewer');
    expect(attributes.get(SESSION_ATTRIBUTE.name)).toBe('default');
    expect(attributes.get(DELEGATION_ID_ATTRIBUTE.name)).toBe('d-1');
    expect(attributes.has(FORKED_FROM_ATTRIBUTE.name)).toBe(false);
    // The Temporal UI's line: agent and task on one line.
    expect(options.staticSummary).toBe('reviewer: Review the diff in detail');
  });

  it('records the tool queue, the model and a fork, and leaves the transcript out of the memo', () => {
    const fork = {
      delegationId: 'd-0',
      workflowId: 'delegation/default/d-0',
      fromRound: 2,
      transcript: [{ role: 'user' as const, content: 'Review the diff' }],
    };
    const options = delegationStartOptions(
      { ...request, caller: { id: null, roles: [] }, model: 'fast', fork },
      ids,
      { taskQueue: 'q', toolQueue: 'tools-w1' },
    );
    expect(options.args?.[0]).toMatchObject({ model: 'fast', fork, toolQueue: 'tools-w1' });
    expect(options.memo).toEqual({
      task: 'Review the diff',
      toolQueue: 'tools-w1',
      forkedFrom: { delegationId: 'd-0', workflowId: 'delegation/default/d-0', fromRound: 2 },
    });
    const forkedFrom = (
      options.typedSearchAttributes as Array<{ key: { name: string }; value: unknown }>
    ).find((pair) => pair.key.name === FORKED_FROM_ATTRIBUTE.name);
    expect(forkedFrom?.value).toBe('d-0');
    expect(options.staticSummary).toBe(
      'reviewer (fork of d-0 at round 2): Review the diff in detail',
    );
  });
});
