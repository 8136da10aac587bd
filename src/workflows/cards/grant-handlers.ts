/**
 * The `revokeGrant` update: a person takes back what they allowed for the rest of a
 * delegation. Its validator refuses an unknown or already revoked grant with the reason; the
 * revocation counts from the next call policy decides. Sandbox code.
 */
import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import { revokeGrantUpdate, sessionGrantsSignal } from '../../shared/cards/grant-messages.js';
import type { DelegationRun } from '../delegation-run.js';

/** Failure type of a refused revocation. */
export const GRANT_UNKNOWN = 'GrantUnknown';

export function registerGrantHandlers(run: DelegationRun): void {
  // A Task child: its session's grants, whole, each time one is recorded or revoked.
  setHandler(sessionGrantsSignal, (grants) => run.grants.setSessionGrants(grants));
  setHandler(
    revokeGrantUpdate,
    ({ n, revokedBy }) => {
      const grant = run.grants.revoke(n, revokedBy ?? null, new Date().toISOString());
      if (grant === null) throw ApplicationFailure.nonRetryable(`grant ${n} cannot be revoked`);
      return grant;
    },
    {
      validator: ({ n }) => {
        const problem = run.grants.revocationProblem(n);
        if (problem !== null)
          throw ApplicationFailure.create({
            type: GRANT_UNKNOWN,
            message: problem,
            nonRetryable: true,
          });
      },
    },
  );
}
