/**
 * The steering queue (src/workflows/steering.ts) outside a worker: it is plain sandbox-safe code
 * over a DelegationRun, so order, delivery, refusals and what a continue-as-new carries are
 * checked here directly; the dev-server tests cover the update around it.
 */
import { describe, expect, it } from 'vitest';
import type { DelegationInput } from '../../src/shared/delegation.js';
import { STEERING_REFUSALS } from '../../src/shared/steering.js';
import { DelegationRun } from '../../src/workflows/delegation-run.js';
import { CARRIED_DELIVERED_MESSAGES, SteeringQueue } from '../../src/workflows/steering.js';

const input: DelegationInput = {
  delegationId: 'd-steer',
  agent: 'steered',
  task: 'Do the task',
  session: 'test',
  caller: { id: null, roles: [] },
  options: {},
};

const newRun = () => new DelegationRun(input, 'delegation/test/d-steer');
const send = (queue: SteeringQueue, text: string) => queue.accept({ text, from: 'erin' });

describe('SteeringQueue', () => {
  it('delivers waiting messages in order, once, as user messages and message events', () => {
    const run = newRun();
    const queue = new SteeringQueue();
    expect(send(queue, 'one')).toMatchObject({ seq: 1, deliveredAt: null });
    expect(send(queue, 'two')).toMatchObject({ seq: 2 });
    expect(queue.waiting()).toBe(true);
    queue.deliver(run);
    queue.deliver(run);
    expect(queue.waiting()).toBe(false);
    expect(run.transcript).toEqual([
      { role: 'user', content: 'Do the task' },
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ]);
    expect(run.eventsAfter(0)).toMatchObject([
      { type: 'message', text: 'one', from: 'erin' },
      { type: 'message', text: 'two', from: 'erin' },
    ]);
    expect(queue.list()).toMatchObject([
      { seq: 1, deliveredBeforeRound: 1, deliveredAt: expect.any(String) },
      { seq: 2, deliveredBeforeRound: 1 },
    ]);
  });

  it('refuses a blank or too long text, and everything once closed', () => {
    const run = newRun();
    const queue = new SteeringQueue();
    expect(queue.rejection(run, { text: 'fine', from: null })).toBeNull();
    expect(queue.rejection(run, { text: ' ', from: null })).toMatchObject({
      type: STEERING_REFUSALS.invalid,
      message: 'the message is empty',
    });
    expect(queue.rejection(run, { text: 'x'.repeat(64 * 1024 + 1), from: null })).toMatchObject({
      type: STEERING_REFUSALS.invalid,
    });
    queue.close();
    expect(queue.rejection(run, { text: 'fine', from: null })).toMatchObject({
      type: STEERING_REFUSALS.finished,
      message: expect.stringMatching(/d-steer has finished: resume it/),
    });
  });

  it('carries every waiting message and the latest delivered ones; numbering goes on', () => {
    const run = newRun();
    const queue = new SteeringQueue();
    for (let index = 0; index < CARRIED_DELIVERED_MESSAGES + 5; index++)
      send(queue, `old ${index}`);
    queue.deliver(run);
    send(queue, 'waiting');
    const carried = queue.carry();
    expect(carried).toHaveLength(CARRIED_DELIVERED_MESSAGES + 1);
    expect(carried[0]!.seq).toBe(6);
    expect(carried.at(-1)).toMatchObject({ text: 'waiting', deliveredAt: null });

    const next = new SteeringQueue(carried);
    expect(next.waiting()).toBe(true);
    expect(send(next, 'after the hand-over').seq).toBe(CARRIED_DELIVERED_MESSAGES + 7);
    const nextRun = newRun();
    next.deliver(nextRun);
    expect(nextRun.transcript.slice(-2)).toEqual([
      { role: 'user', content: 'waiting' },
      { role: 'user', content: 'after the hand-over' },
    ]);
  });
});
