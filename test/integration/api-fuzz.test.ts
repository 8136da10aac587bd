/**
 * API fuzz against the real facade on the real dev server: the in-process app (`app.request`)
 * over createDelegations on a task queue nobody polls, so starts that pass validation create
 * real workflows that simply wait, and reads, stops and decisions meet real Temporal answers
 * (visibility, describe, "no worker" 503s). Same generator and checks as test/api/fuzz.test.ts,
 * which runs 10,000 cases over the stub facade; this run is smaller because an unknown id costs
 * up to 700 ms of visibility retries here. `?wait=true` is left out: on a queue nobody polls it
 * waits for a result by design.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import { ANONYMOUS_CALLER } from '../../src/shared/caller.js';
import { createDelegations, type Delegations } from '../../src/temporal/delegations/facade.js';
import { checkAnswer, requestArbitrary, toRequest, withinBound } from '../api/fuzz-requests.js';
import { AUTH_CONFIG, config, TOKEN_ENV } from '../api/make-app.js';
import { calibrate, type BudgetRule } from '../support/calibration.js';

const RUNS = 300;
/**
 * Bound on one answer, only a hang trips it: the slowest answer the door gives on purpose is an
 * unknown id (visibility retries, up to ~1 s), so 10 of those measured on the same app, or 10 s.
 */
const NO_HANG: BudgetRule = { factor: 10, floorMs: 10_000 };

let connection: Connection;
let client: Client;
let delegations: Delegations;
const taskQueue = `fuzz-nobody-polls-${randomUUID()}`;
const known: string[] = [];

beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection });
  delegations = createDelegations(client, {
    namespace: 'default',
    taskQueue,
    queryTimeoutMs: 2000,
  });
  for (const caller of [ANONYMOUS_CALLER, { id: 'olga', roles: ['ops'] }]) {
    const started = await delegations.start({
      agent: 'demo',
      task: 'Fuzz target',
      session: 'fuzz',
      caller,
      options: {},
    });
    known.push(started.delegationId);
  }
});

afterAll(async () => {
  // Everything the fuzz started waits on a queue nobody polls: end it.
  if (client !== undefined) {
    for await (const info of client.workflow.list({ query: `TaskQueue = '${taskQueue}'` })) {
      if (info.status.name === 'RUNNING') {
        await client.workflow
          .getHandle(info.workflowId)
          .terminate('fuzz cleanup')
          .catch(() => {});
      }
    }
  }
  await connection?.close();
});

describe('API fuzz on the real dev server', () => {
  it(`answers ${RUNS} generated requests without a 500, a hang or a non-JSON error`, async () => {
    const errors: unknown[] = [];
    const logger: Logger = {
      error: (message, error) => errors.push([message, error]),
      warn: () => {},
      info: () => {},
    };

    const apps = {
      off: createApp({ delegations, config, auth: createAuth({}), logger }),
      on: createApp({
        delegations,
        config,
        auth: createAuth({ auth: AUTH_CONFIG }, TOKEN_ENV),
        logger,
      }),
    };
    const bound = await calibrate(
      'GET /delegations/<an unknown id> on the same app',
      async () => (await apps.off.request(`/delegations/d-${randomUUID()}`)).text(),
      NO_HANG,
    );
    const statuses = new Map<number, number>();
    const began = Date.now();
    await fc.assert(
      fc.asyncProperty(
        requestArbitrary({ delegations: known }, { wait: false }),
        fc.boolean(),
        async (request, authOn) => {
          const app = authOn ? apps.on : apps.off;
          const status = await withinBound(
            (async () => checkAnswer(request, await app.request(toRequest(request))))(),
            bound,
            `${request.method} ${request.path.slice(0, 120)}`,
          );
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      ),
      { numRuns: RUNS },
    );
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    console.log(
      `fuzz (real facade, dev server): ${RUNS} requests held in ${seconds} s; statuses ${JSON.stringify(
        Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      )}`,
    );
    // Requests reached Temporal and came back both ways, not only refusals at the door.
    for (const status of [200, 201, 404, 422]) {
      expect(statuses.get(status) ?? 0, `status ${status} never produced`).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
  }, 300_000);
});
