/**
 * What the smoke checks share: starting a delegation through the facade the API and the CLI use,
 * waiting for it to park or finish (a real model takes seconds a round), and reading the model
 * calls' inputs from its history: what the model was sent, the way Temporal recorded it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { ANONYMOUS_CALLER } from '../../../src/shared/caller.js';
import type {
  ApprovalCard,
  DelegationResult,
  DelegationState,
} from '../../../src/shared/delegation.js';
import type { TranscriptEntry } from '../../../src/shared/model-contract.js';
import type { Delegations } from '../../../src/temporal/delegations/types.js';

/** Longest wait for one delegation to park or finish: a few rounds of a 1-thread CPU model. */
export const DELEGATION_WAIT_MS = 150_000;

export async function startDelegation(
  delegations: Delegations,
  agent: string,
  task: string,
): Promise<string> {
  const { delegationId } = await delegations.start({
    agent,
    task,
    session: 'smoke',
    caller: ANONYMOUS_CALLER,
    options: {},
  });
  return delegationId;
}

export type Settled =
  | { kind: 'finished'; result: DelegationResult; state: DelegationState }
  | { kind: 'parked'; card: ApprovalCard; state: DelegationState };

/** Waits until the delegation finishes or parks on a card; fails after DELEGATION_WAIT_MS. */
export async function settled(delegations: Delegations, delegationId: string): Promise<Settled> {
  const signal = AbortSignal.timeout(DELEGATION_WAIT_MS);
  for (;;) {
    const outcome = await delegations.settle(delegationId, { signal });
    if (outcome.status === 'finished') {
      return {
        kind: 'finished',
        result: outcome.result,
        state: await delegations.get(delegationId),
      };
    }
    if (outcome.status === 'parked') {
      return { kind: 'parked', card: outcome.state.pendingCards[0]!, state: outcome.state };
    }
    if (signal.aborted) {
      throw new Error(
        `delegation ${delegationId} neither parked nor finished in ${DELEGATION_WAIT_MS} ms: ${outcome.message}`,
      );
    }
    // No worker polls (yet): look again shortly rather than spin.
    await sleep(500);
  }
}

/** The finished result; a card where none was expected fails with the card's tool and reason. */
export async function finished(
  delegations: Delegations,
  delegationId: string,
): Promise<DelegationResult> {
  const outcome = await settled(delegations, delegationId);
  if (outcome.kind === 'parked') {
    throw new Error(
      `delegation ${delegationId} parked on a '${outcome.card.tool}' card (${outcome.card.reason}) where it should have finished`,
    );
  }
  return outcome.result;
}

/** Stops a delegation that asks for more than the check needs, and returns its result. */
export async function stopAndResult(
  delegations: Delegations,
  delegationId: string,
): Promise<DelegationResult> {
  await delegations.stop(delegationId);
  return finished(delegations, delegationId);
}

/** The transcript each `callModel` activity was sent, in order, decoded from the history. */
export async function modelInputs(
  client: Client,
  workflowId: string,
): Promise<TranscriptEntry[][]> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  return (events ?? []).flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== 'callModel') return [];
    const data = scheduled.input?.payloads?.[0]?.data;
    if (data == null) return [];
    const input = JSON.parse(Buffer.from(data).toString('utf8')) as {
      transcript: TranscriptEntry[];
    };
    return [input.transcript];
  });
}
