/**
 * Revoking a grant: an update, so the caller is told at once whether it applied;
 * its validator refuses an unknown or already revoked grant with the reason.
 */
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Grant } from '../policy-contract.js';

export interface RevokeGrant {
  n: number;
  revokedBy?: string | null;
}

export const revokeGrantUpdate = defineUpdate<Grant, [RevokeGrant]>('revokeGrant');

/**
 * A session's grants for the rest of the session, all of them, revoked ones
 * included: sent to its running children whenever one is recorded or revoked.
 */
export const sessionGrantsSignal = defineSignal<[Grant[]]>('sessionGrants');
