/**
 * API fuzz, in process (`app.request`) over a stub facade that answers the way the real one does
 * (known ids succeed, unknown ones are `not-found`). 10,000 generated requests across every
 * route, with auth off and on: no 500, no hang, every 4xx is JSON with an `error` code, no answer
 * echoes its input whole or carries a token.
 *
 * Why the stub here: the real facade spends up to 700 ms looking an unknown id up in visibility
 * (it retries, as visibility is eventually consistent), so 10,000 cases on Temporal would take
 * minutes. test/integration/api-fuzz.test.ts runs the same generator against the real facade
 * on the real dev server, with fewer cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DelegationEvent, DelegationState } from '../../src/shared/delegation.js';
import { DeputyError } from '../../src/errors.js';
import type { Delegations } from '../../src/temporal/delegations/facade.js';
import { checkAnswer, requestArbitrary, toRequest, withinBound } from './fuzz-requests.js';
import { makeApp } from './make-app.js';
import { calibrate, type BudgetRule } from '../support/calibration.js';
import { cardOfD1 } from './stub-delegations.js';

const KNOWN = ['d-1', 'd-2'] as const;
const isKnown = (id: string) => (KNOWN as readonly string[]).includes(id);
const notFound = (id: string) => new DeputyError('not-found', `no delegation with id '${id}'`);

function stateOf(id: string): DelegationState {
  return {
    delegationId: id,
    workflowId: `delegation/default/${id}`,
    agent: 'demo',
    session: 'default',
    status: 'parked',
    roundsUsed: 1,
    maxTurns: 6,
    model: 'scripted',
    definitionHash: null,
    pendingCards: [cardOfD1(`${id}.1`, 'write'), cardOfD1(`${id}.2`, 'read')],
    decidedCards: [],
    transcriptSummary: [],
    deniedCalls: [],
    result: null,
  } as DelegationState;
}

const result = { status: 'completed' as const, text: 'done', notice: null, roundsUsed: 1 };
const finished: DelegationEvent = {
  seq: 1,
  at: '2026-01-01T00:00:00.000Z',
  type: 'finished',
  result,
};

/** The facade as the routes see it: every method answers or fails as the real one would. */
const plausible: Partial<Delegations> = {
  async start(request) {
    if (request.delegationId !== undefined && isKnown(request.delegationId)) {
      throw new DeputyError('conflict', `delegation ${request.delegationId} already exists`);
    }
    const delegationId = request.delegationId ?? 'd-new';
    return {
      delegationId,
      workflowId: `delegation/${request.session}/${delegationId}`,
      session: request.session,
      agent: request.agent,
    };
  },
  async find(id) {
    if (!isKnown(id)) throw notFound(id);
    return `delegation/default/${id}`;
  },
  async owner(id) {
    if (!isKnown(id)) throw notFound(id);
    return 'olga';
  },
  async get(id) {
    if (!isKnown(id)) throw notFound(id);
    return stateOf(id);
  },
  list: async () => [],
  async stop(id) {
    if (!isKnown(id)) throw notFound(id);
    return { stopped: true };
  },
  cards: async () => [],
  async decide(cardId, request) {
    const card = stateOf('d-1').pendingCards.find((pending) => pending.id === cardId);
    if (card === undefined) throw new DeputyError('not-found', `no approval card '${cardId}'`);
    return {
      ...card,
      state:
        request.decision === 'approve'
          ? { status: 'approved', reason: null, decidedAt: 'now', decidedBy: null }
          : { status: 'denied', reason: 'no', decidedAt: 'now', decidedBy: null },
    };
  },
  async events(id) {
    if (!isKnown(id)) throw notFound(id);
    return [finished];
  },
  async settle(id) {
    if (!isKnown(id)) throw notFound(id);
    return { status: 'finished', result };
  },
};

/**
 * Bound on one in-process answer, only a hang trips it: 1,000 times the slowest of a few plain
 * reads of a known delegation on the same app, or 5 s (they take milliseconds).
 */
const NO_HANG: BudgetRule = { factor: 1_000, floorMs: 5_000 };
const RUNS = 10_000;

describe('API fuzz over the stub facade', () => {
  it(`answers ${RUNS} generated requests without a 500, a hang or a non-JSON error`, async () => {
    const apps = {
      off: makeApp({ delegations: plausible }),
      on: makeApp({ delegations: plausible, auth: true }),
    };
    const bound = await calibrate(
      'GET /delegations/d-1 on the same app',
      async () => (await apps.off.app.request('/delegations/d-1')).text(),
      NO_HANG,
      5,
    );
    const statuses = new Map<number, number>();
    const began = Date.now();
    await fc.assert(
      fc.asyncProperty(
        requestArbitrary({ delegations: KNOWN }),
        fc.boolean(),
        async (request, authOn) => {
          const { app } = authOn ? apps.on : apps.off;
          const what = `${request.method} ${request.path.slice(0, 120)}`;
          const status = await withinBound(
            (async () => checkAnswer(request, await app.request(toRequest(request))))(),
            bound,
            what,
          );
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      ),
      { numRuns: RUNS },
    );
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    console.log(
      `fuzz (stub facade): ${RUNS} requests held in ${seconds} s; statuses ${JSON.stringify(
        Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      )}`,
    );
    // The generator must reach every answer the door gives, or the fuzz proves little.
    for (const status of [200, 201, 401, 403, 404, 409, 413, 415, 421, 422]) {
      expect(statuses.get(status) ?? 0, `status ${status} never produced`).toBeGreaterThan(0);
    }
    expect(apps.off.errors).toEqual([]);
    expect(apps.on.errors).toEqual([]);
  }, 120_000);
});
