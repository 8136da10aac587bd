/**
 * Richer decisions across a worker SIGKILL: an answer and an approve-for-the-rest
 * recorded while the worker is dead apply exactly once when a worker is back; an edit, which
 * the delegation itself must check, is refused at once (503) with no worker and leaves the card
 * pending. Real worker processes on the real dev server.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import { useCleanups } from '../support/cleanups.js';
import { apiOf, timedRequest } from './support/app-request.js';
import { createHarness, eventually } from './support/harness.js';
import { echoAgent, repeatAgent } from './support/rich-decision-agents.js';
import { killWorker, spawnWorker } from './support/worker-process.js';

const cleanups = useCleanups();

describe('rich decisions and a worker SIGKILL', () => {
  it('an answer and a grant recorded while no worker runs apply exactly once after restart', async () => {
    const harness = await createHarness({ ...echoAgent, ...repeatAgent }, { startWorker: false });
    cleanups.push(() => harness.close());
    const app = apiOf(harness);
    const worker = await spawnWorker(harness, cleanups);
    const session = `rdk-${randomUUID().slice(0, 8)}`;
    const park = async (agent: string) => {
      const started = await timedRequest(app, 'POST', '/delegations?wait=true', {
        agent,
        task: 'Write',
        session,
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const state = started.body.state as DelegationState;
      return { delegationId: started.body.delegationId as string, card: state.pendingCards[0]! };
    };
    const echo = await park('echo');
    const repeat = await park('repeat');
    const third = await park('echo');

    await killWorker(worker);

    const answered = await timedRequest(app, 'POST', `/cards/${echo.card.id}`, {
      decision: 'answer',
      answer: 'answered while the worker was down',
    });
    expect(answered).toMatchObject({ status: 202, body: { status: 'recorded' } });
    const allowed = await timedRequest(app, 'POST', `/cards/${repeat.card.id}`, {
      decision: 'approve',
      allow: 'delegation',
    });
    expect(allowed).toMatchObject({ status: 202, body: { status: 'recorded' } });
    // An edit is checked by the delegation itself: refused at once without a worker.
    const edit = await timedRequest(app, 'POST', `/cards/${third.card.id}`, {
      decision: 'approve',
      arguments: { path: 'note.txt', content: 'x' },
    });
    expect(edit).toMatchObject({ status: 503, body: { error: 'unavailable' } });
    // Told at once: no worker (once Temporal knows it is gone), or none answered in time (a
    // worker just killed still looks alive for a while; the edit may then apply when one is back).
    expect(edit.body.message).toMatch(/checked by the delegation itself|did not answer the edit/);
    // A second decision on a card with one recorded is told, whatever its kind.
    expect(
      await timedRequest(app, 'POST', `/cards/${echo.card.id}`, { decision: 'approve' }),
    ).toMatchObject({ status: 409 });

    await spawnWorker(harness, cleanups);
    const settled = async (delegationId: string, until: (state: DelegationState) => boolean) =>
      eventually(
        async () => {
          const { body } = await timedRequest(app, 'GET', `/delegations/${delegationId}`);
          const state = body as unknown as DelegationState;
          return until(state) ? state : undefined;
        },
        `delegation ${delegationId} after the restart`,
        90_000,
      );
    const echoState = await settled(echo.delegationId, (state) => state.result !== null);
    expect(echoState.result?.text).toContain('answered while the worker was down');
    expect(echoState.decidedCards).toMatchObject([
      { id: echo.card.id, state: { status: 'answered' } },
    ]);
    const repeatState = await settled(
      repeat.delegationId,
      (state) => state.pendingCards.length > 0,
    );
    expect(existsSync(join(harness.workspace, 'note.txt'))).toBe(true);
    // Exactly one grant, one decided card; the second write ran under the grant, other.txt asks.
    expect(repeatState.grants).toHaveLength(1);
    expect(repeatState.decidedCards).toHaveLength(1);
    expect(repeatState.pendingCards).toMatchObject([{ arguments: { path: 'other.txt' } }]);
    const thirdState = await settled(third.delegationId, () => true);
    // Pending, or (the timed-out edit applied after all) approved with it: never twice.
    expect([...thirdState.pendingCards, ...thirdState.decidedCards]).toHaveLength(1);
    for (const card of thirdState.decidedCards)
      expect(card.state).toMatchObject({ status: 'approved', editedArguments: { content: 'x' } });
    for (const { delegationId } of [repeat, third])
      await timedRequest(app, 'POST', `/delegations/${delegationId}/stop`);
  }, 240_000);
});
