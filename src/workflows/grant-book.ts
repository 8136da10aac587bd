/**
 * The grants of one delegation (issue 30): recorded when a card is approved with
 * `allow: 'delegation'`, read by policy on every later call, revocable, carried across
 * continue-as-new. Sandbox code: deterministic, no I/O.
 */
import type { CardDecision } from '../shared/delegation.js';
import type { Grant } from '../shared/policy-contract.js';
import { grantScopeFor, type GrantCall } from '../policy/grants.js';

export class GrantBook {
  private readonly grants: Grant[];
  /** What each pending card's call is, as a grant would scope it (not in any state). */
  private readonly calls = new Map<string, GrantCall>();

  constructor(carried: Grant[] = []) {
    this.grants = carried.map((grant) => ({ ...grant }));
  }

  /** A card was opened for this call: approving it for the rest grants this scope. */
  remember(cardId: string, call: GrantCall): void {
    this.calls.set(cardId, call);
  }

  /**
   * Records the grant an approval with `allow: 'delegation'` asks for; its number, or undefined
   * when the decision asks for none or the call has no scope a grant can hold (the approval then
   * covers this card only).
   */
  record(decision: CardDecision, at: string): number | undefined {
    const call = this.calls.get(decision.cardId);
    this.calls.delete(decision.cardId);
    if (decision.decision !== 'approve' || decision.allow !== 'delegation' || call === undefined)
      return undefined;
    const scope = grantScopeFor(call);
    if (typeof scope === 'string') return undefined;
    const grant: Grant = {
      n: this.grants.length + 1,
      tool: call.tool,
      scope,
      cardId: decision.cardId,
      grantedBy: decision.decidedBy ?? null,
      grantedAt: at,
    };
    this.grants.push(grant);
    return grant.n;
  }

  /** Why grant `n` cannot be revoked, or null when it can. */
  revocationProblem(n: number): string | null {
    const grant = this.grants.find((candidate) => candidate.n === n);
    if (grant === undefined) return `no grant ${String(n)} in this delegation`;
    if (grant.revoked !== undefined) return `grant ${n} was already revoked`;
    return null;
  }

  /** Revokes grant `n`; returns it, or null when it cannot be. */
  revoke(n: number, by: string | null, at: string): Grant | null {
    if (this.revocationProblem(n) !== null) return null;
    const grant = this.grants.find((candidate) => candidate.n === n)!;
    grant.revoked = { at, by };
    return { ...grant };
  }

  /** Every grant, revoked ones included (what the state shows). */
  all(): Grant[] {
    return this.grants.map((grant) => ({ ...grant }));
  }

  /** The grants policy applies. */
  active(): Grant[] {
    return this.grants.filter((grant) => grant.revoked === undefined);
  }
}
