/**
 * Follows a foreground delegation: prints its events as they happen (the same events query the
 * SSE stream polls) and returns its result. Nothing is lost when no worker is up for a while:
 * the next poll resumes after the last sequence number printed.
 */
import type { DelegationResult } from '../shared/delegation.js';
import { DeputyError } from '../errors.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import { eventLines } from './format.js';
import type { Io } from './io.js';

export interface FollowOptions {
  /** Milliseconds between polls. Default 300. */
  pollMs?: number;
  /** Aborts the follow (Ctrl-C); the delegation itself runs on. */
  signal?: AbortSignal;
}

export interface FollowOutcome {
  result: DelegationResult;
  /** Tools whose calls were denied during the run, in order. */
  deniedCalls: string[];
}

export async function followDelegation(
  delegations: Delegations,
  delegationId: string,
  print: Io['err'],
  options: FollowOptions = {},
): Promise<FollowOutcome | null> {
  const pollMs = options.pollMs ?? 300;
  const deniedCalls: string[] = [];
  let last = 0;
  let warned = false;
  while (!options.signal?.aborted) {
    try {
      const events = await delegations.events(delegationId, last);
      for (const event of events) {
        for (const line of eventLines(event)) print(line);
        last = Math.max(last, event.seq);
        // A denial by a human (card), by policy (unattended) or for an undeclared tool.
        if (event.type === 'tool-call' && /^(deny|ask:denied)$/.test(event.verdict)) {
          deniedCalls.push(event.tool);
        }
        if (event.type === 'finished') return { result: event.result, deniedCalls };
      }
    } catch (error) {
      if (error instanceof DeputyError) throw error;
      // The workflow cannot answer: finished without answering, or no worker yet.
      const state = await delegations.get(delegationId).catch(() => null);
      if (state?.result) {
        const denied = state.decidedCards.filter((card) => card.state.status === 'denied');
        return { result: state.result, deniedCalls: denied.map((card) => card.tool) };
      }
      if (!warned) {
        print(
          'waiting for a worker to pick the delegation up (is `deputy dev` or `deputy worker` running?)',
        );
        warned = true;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return null;
}
