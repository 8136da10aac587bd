/**
 * Follows a foreground delegation: prints its events as they happen (the same events query the
 * SSE stream polls) and returns its result. Nothing is lost when no worker is up for a while:
 * the next poll resumes after the last sequence number printed.
 */
import type { DelegationResult } from '../../shared/delegation.js';
import { DeputyError } from '../../errors.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import { eventLines } from '../format.js';
import type { Io } from '../io.js';

export interface FollowOptions {
  /** Milliseconds between polls. Default 300. */
  pollMs?: number;
  /** Aborts the follow (Ctrl-C); the delegation itself runs on. */
  signal?: AbortSignal;
}

export async function followDelegation(
  delegations: Delegations,
  delegationId: string,
  print: Io['err'],
  options: FollowOptions = {},
): Promise<DelegationResult | null> {
  const pollMs = options.pollMs ?? 300;
  let last = 0;
  let warned = false;
  while (!options.signal?.aborted) {
    try {
      const events = await delegations.events(delegationId, last);
      for (const event of events) {
        for (const line of eventLines(event)) print(line);
        last = Math.max(last, event.seq);
        if (event.type === 'finished') return event.result;
      }
    } catch (error) {
      if (error instanceof DeputyError) throw error;
      // The workflow cannot answer: finished without answering, or no worker yet.
      const state = await delegations.get(delegationId).catch(() => null);
      if (state?.result) return state.result;
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
