/**
 * Nothing hangs on a Temporal outage: with the server stopped every route
 * answers 503 `unavailable` promptly and /health says Temporal is unreachable; once the server is
 * back on the same SQLite file, the same app, facade and connection work again, no restart.
 * The API is the in-process app over the real facade, on the connection the product makes
 * (connectTemporal); the dev server is this test's own, so stopping it disturbs no other test.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { DelegationState } from '../../src/shared/delegation.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { RPC_TIMEOUT_MS } from '../../src/temporal/calls/rpc.js';
import { freePort, startDevServer, type DevServer } from '../../src/servers/dev/dev-server.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { createHarness, eventually } from './support/harness.js';
import { timedRequest } from './support/app-request.js';
import { useCleanups } from '../support/cleanups.js';
import { budgetFrom, timed, type BudgetRule } from '../support/calibration.js';
import { scribeAgent } from './support/scribe-agent.js';

/**
 * The product answers within 2 s, 4 s for a server that holds the connection (each Temporal
 * call is bounded by RPC_TIMEOUT_MS, 1.5 s, and asked once more where that is safe). Without the
 * bound the SDK retries a call to a stopped server for about 20 s before failing, which is what
 * this catches. The bound: those two deliberate waits, plus the work, measured as the same
 * kind of reads answered by a healthy server just before: 10 of those, or 2 s.
 */
const ANSWER: BudgetRule = { factor: 10, floorMs: 2_000, plusMs: 2 * RPC_TIMEOUT_MS };
/** A stopped server costs one wait, not two: RPC_TIMEOUT_MS plus the same room as above. */
const ONE_WAIT: BudgetRule = { factor: 10, floorMs: 1_000, plusMs: RPC_TIMEOUT_MS };
/**
 * `deputy list` with the server stopped, against `deputy list` with it up (a process start-up
 * takes seconds here by itself): 3 of those, or 10 s, plus the two waits; the SDK's ~20 s of
 * retries on top of a start-up is past that.
 */
const CLI_ANSWER: BudgetRule = { factor: 3, floorMs: 10_000, plusMs: 2 * RPC_TIMEOUT_MS };

type App = ReturnType<typeof createApp>;

/** The slowest of a few answers to `paths` (reads) from a healthy server, in milliseconds. */
async function healthyReads(app: App, paths: string[]): Promise<number> {
  let slowest = 0;
  for (let round = 0; round < 3; round += 1) {
    for (const path of paths) {
      const answer = await timedRequest(app, 'GET', path);
      expect(answer.status, `${path} on a healthy server`).toBeLessThan(500);
      slowest = Math.max(slowest, answer.ms);
    }
  }
  return slowest;
}

const cleanups = useCleanups();

describe('Temporal down', () => {
  it('answers every route 503 within the bound, reports it on /health, and recovers after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deputy-down-'));
    const port = await freePort();
    let server: DevServer = await startDevServer({ dataDir, port, headless: true });
    cleanups.push(() => server.stop());
    const before = await createHarness(scribeAgent, { address: server.address });
    const temporal = await connectTemporal(before.config);
    cleanups.push(() => temporal.close());
    const delegations = createDelegations(temporal.client, {
      namespace: before.config.temporal.namespace,
      taskQueue: before.taskQueue,
    });
    const app = createApp({ delegations, config: before.config, auth: createAuth({}) });
    const session = `down-${randomUUID().slice(0, 8)}`;

    expect(await timedRequest(app, 'GET', '/health')).toMatchObject({
      status: 200,
      body: { ok: true, auth: false, temporal: 'reachable' },
    });
    const parked = await timedRequest(app, 'POST', '/delegations?wait=true', {
      agent: 'scribe',
      task: 'Write the note',
      session,
    });
    expect(parked.status).toBe(202);
    const delegationId = parked.body.delegationId as string;
    const cardId = (parked.body.state as DelegationState).pendingCards[0]!.id;
    const cliEnv = {
      ...process.env,
      TEMPORAL_ADDRESS: server.address,
      DEPUTY_WORKSPACE: before.workspace,
    };
    // The baselines, on the server still up: reads of the same routes, and the same command.
    const healthyMs = await healthyReads(app, [
      '/health',
      `/delegations?session=${session}`,
      `/delegations/${delegationId}`,
      `/sessions/${session}/cards`,
    ]);
    const answerBudget = budgetFrom('the slowest healthy read', healthyMs, ANSWER);
    const cliUp = await timed(() => runDeputy(['list'], { env: cliEnv }));
    expect(cliUp.value.code, cliUp.value.stderr).toBe(0);
    const cliBudget = budgetFrom('`deputy list` with the server up', cliUp.ms, CLI_ANSWER);
    // The worker goes first, as `deputy dev` stops it: it must not outlive its server.
    await before.close();
    await server.stop();

    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/delegations'],
      ['GET', `/delegations?session=${session}`],
      ['GET', `/delegations/${delegationId}`],
      ['GET', `/delegations/d-neverstarted`],
      ['GET', `/delegations/${delegationId}/events`],
      ['GET', `/sessions/${session}/cards`],
      ['POST', `/cards/${cardId}`, { decision: 'approve' }],
      ['POST', '/delegations', { agent: 'scribe', task: 'Write again', session }],
      ['POST', '/delegations?wait=true', { agent: 'scribe', task: 'Write again', session }],
      ['POST', `/delegations/${delegationId}/stop`],
      ['POST', `/delegations/${delegationId}/messages`, { text: 'still there?' }],
      ['POST', `/delegations/${delegationId}/resume`, { text: 'go on' }],
    ];
    const times: string[] = [];
    const durations: number[] = [];
    for (const [method, path, body] of routes) {
      const answer = await timedRequest(app, method, path, body);
      times.push(`${method} ${path.split('?')[0]} ${answer.ms} ms`);
      durations.push(answer.ms);
      expect({
        route: `${method} ${path}`,
        status: answer.status,
        error: answer.body.error,
      }).toEqual({ route: `${method} ${path}`, status: 503, error: 'unavailable' });
      expect(answer.body.message).toMatch(/Temporal is not reachable/);
      answerBudget.expectWithin(answer.ms, `${method} ${path} with Temporal down`);
    }
    // A stopped server leaves the channel unconnected: one bound per answer, not the two that a
    // connected server slow to answer gets (the median, so one slow answer on a busy machine
    // does not decide it).
    const median = [...durations].sort((a, b) => a - b)[Math.floor(durations.length / 2)]!;
    budgetFrom('the slowest healthy read', healthyMs, ONE_WAIT).expectWithin(
      median,
      `the median answer (${times.join('; ')})`,
    );
    const health = await timedRequest(app, 'GET', '/health');
    expect(health).toMatchObject({
      status: 503,
      body: { ok: false, auth: false, temporal: 'unreachable' },
    });
    answerBudget.expectWithin(health.ms, '/health with Temporal down');
    console.log(
      `Temporal down, answer times: ${[...times, `health ${health.ms} ms`].join('; ')}; healthy reads ${healthyMs} ms at most`,
    );

    // The CLI too: exit 5 with the hint, and it does not wait on the server.
    const cli = await timed(() => runDeputy(['list'], { env: cliEnv }));
    expect({ code: cli.value.code, stderr: cli.value.stderr }).toMatchObject({
      code: 5,
      stderr: expect.stringContaining('deputy dev'),
    });
    cliBudget.expectWithin(cli.ms, '`deputy list` with Temporal down');
    console.log(
      `Temporal down: \`deputy list\` exit ${cli.value.code} after ${Math.round(cli.ms)} ms (${Math.round(cliUp.ms)} ms with it up)`,
    );

    server = await startDevServer({ dataDir, port, headless: true });
    const restarted = Date.now();
    // Same app, same connection: it reconnects by itself. A generous guard, not a speed claim.
    await eventually(
      async () => ((await timedRequest(app, 'GET', '/health')).status === 200 ? true : undefined),
      'the API to reach Temporal again',
      30_000,
    );
    console.log(`Temporal back: /health 200 again ${Date.now() - restarted} ms after the restart`);
    const listed = await timedRequest(app, 'GET', `/delegations?session=${session}`);
    expect(listed.status).toBe(200);
    expect(listed.body.delegations).toEqual([
      expect.objectContaining({ delegationId, status: 'parked', pendingCards: 1 }),
    ]);
    expect(await timedRequest(app, 'GET', `/delegations/${delegationId}`)).toMatchObject({
      status: 200,
      body: { status: 'parked', pendingCards: [{ id: cardId }] },
    });
    expect(
      (
        await timedRequest(app, 'POST', '/delegations', {
          agent: 'scribe',
          task: 'Once more',
          session,
        })
      ).status,
    ).toBe(201);

    const after = await createHarness(
      {},
      { address: server.address, workspace: before.workspace, taskQueue: before.taskQueue },
    );
    cleanups.push(() => after.close());
    const decided = await timedRequest(app, 'POST', `/cards/${cardId}`, { decision: 'approve' });
    // 200 when the fresh worker applies it within the wait, 202 when it takes longer (its first
    // task replays the history); either way it must apply, which the result below shows.
    expect([200, 202]).toContain(decided.status);
    const state = await eventually(
      async () => {
        const { body } = await timedRequest(app, 'GET', `/delegations/${delegationId}`);
        const current = body as unknown as DelegationState;
        // Until the API notices the new worker (it caches "no worker" for 2 s) the state comes
        // from visibility, which lists no decided cards: wait for the workflow's own answer.
        return current.result && current.decidedCards.length > 0 ? current : undefined;
      },
      'the delegation to finish',
      60_000,
    );
    expect(state.result).toMatchObject({ status: 'completed', text: 'Wrote note.txt.' });
    expect(state.decidedCards).toMatchObject([{ id: cardId, state: { status: 'approved' } }]);
    expect(existsSync(join(before.workspace, 'note.txt'))).toBe(true);
  });

  it('a start the server does not answer in time: the 503 names the delegation to look up', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deputy-frozen-'));
    const server = await startDevServer({ dataDir, headless: true });
    cleanups.push(() => server.stop());
    const harness = await createHarness(scribeAgent, { address: server.address });
    cleanups.push(() => harness.close());
    const app = createApp({
      delegations: harness.delegations,
      config: harness.config,
      auth: createAuth({}),
    });
    // The baseline, on the server still answering: reads of the same kind.
    const answerBudget = budgetFrom(
      'the slowest healthy read',
      await healthyReads(app, ['/health', '/delegations?session=frozen']),
      ANSWER,
    );
    // A server that holds the connection and does not answer, as a busy one can: SIGSTOP.
    process.kill(server.pid, 'SIGSTOP');
    cleanups.push(async () => void process.kill(server.pid, 'SIGCONT'));
    // No id of the caller's own: with one, the facade first checks it is free, and that lookup
    // is what times out, before any start was sent (the plain 503 is then the whole truth).
    const answer = await timedRequest(app, 'POST', '/delegations', {
      agent: 'scribe',
      task: 'Write the note',
      session: 'frozen',
    });
    process.kill(server.pid, 'SIGCONT');
    expect(answer).toMatchObject({ status: 503, body: { error: 'unavailable' } });
    const named = /The start of delegation (\S+) was not confirmed and may still happen/.exec(
      String(answer.body.message),
    );
    expect(named, String(answer.body.message)).not.toBeNull();
    const delegationId = named![1]!;
    expect(answer.body.message).toContain(`GET /delegations/${delegationId}`);
    answerBudget.expectWithin(answer.ms, 'the start the server held');
    // What the message says to do answers once the server is back: the delegation, or a 404.
    const looked = await eventually(async () => {
      const found = await timedRequest(app, 'GET', `/delegations/${delegationId}`);
      return found.status === 503 ? undefined : found;
    }, 'the lookup to answer');
    expect([200, 404]).toContain(looked.status);
  });
});
