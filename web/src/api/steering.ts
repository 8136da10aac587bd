/**
 * Typed calls for guiding a delegation: a message to a running one
 * (`POST /delegations/:id/messages`), a finished one resumed with a new message
 * (`POST /delegations/:id/resume`), and a grant revoked (`DELETE /delegations/:id/grants/:n`).
 * Shapes are the server's own (type-only imports).
 */
import type {
  DelegationStarted,
  ResumeDelegationRequest,
  SteeringMessage,
} from '../../../src/api/contract.js';
import type { Grant } from '../../../src/shared/policy-contract.js';
import { api, seg } from './client';

export type { Grant, SteeringMessage };

/** Queued for the next round boundary (202); a finished delegation is refused (409). */
export function sendMessage(delegationId: string, text: string): Promise<SteeringMessage> {
  return api<SteeringMessage>('POST', `/delegations/${seg(delegationId)}/messages`, { text });
}

/** A new delegation going on from this one's whole transcript, `text` appended. */
export function resumeDelegation(
  delegationId: string,
  body: ResumeDelegationRequest,
): Promise<DelegationStarted> {
  return api<DelegationStarted>('POST', `/delegations/${seg(delegationId)}/resume`, body);
}

/** Grant `n` covers nothing from the delegation's next call on; it stays listed as revoked. */
export function revokeGrant(delegationId: string, n: number): Promise<{ grant: Grant }> {
  return api<{ grant: Grant }>('DELETE', `/delegations/${seg(delegationId)}/grants/${n}`);
}
