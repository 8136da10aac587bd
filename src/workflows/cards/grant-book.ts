/**
 * The grants of one delegation: recorded when a card is approved with
 * `allow: 'delegation'`, read by policy on every later call, revocable, carried across
 * continue-as-new. Sandbox code: deterministic, no I/O.
 *
 * Grants for the rest of a session (`allow: 'session'`) live in the session's own book (marked
 * `for: 'session'`). A Task child holds a copy of them (`sessionGrants`: from its input at start,
 * then replaced whole by each `sessionGrants` signal) and applies it with its own; a session
 * grant approved on the child's own card applies there at once (`provisional`) while the session
 * records it and sends the list back.
 */
import type { CardDecision } from '../../shared/delegation.js';
import type { Grant } from '../../shared/policy-contract.js';
import { grantScopeFor, type GrantCall } from '../../policy/grants.js';

export class GrantBook {
  private readonly grants: Grant[];
  /** What each pending card's call is, as a grant would scope it (not in any state). */
  private readonly calls = new Map<string, GrantCall>();

  /** A Task child's copy of its session's grants (for: 'session'), revoked ones included. */
  private sessionGrants: Grant[];
  /** Session grants this child approved that the session has not sent back yet. */
  private provisional: Grant[] = [];
  /** Counts changes to the session grants this book holds (a session sends them on). */
  private changes = 0;

  constructor(carried: Grant[] = [], sessionGrants: Grant[] = []) {
    this.grants = carried.map((grant) => ({ ...grant }));
    this.sessionGrants = sessionGrants.map((grant) => ({ ...grant }));
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
  record(decision: CardDecision, at: string, where: GrantHolder = 'delegation'): GrantRecorded {
    const call = this.calls.get(decision.cardId);
    this.calls.delete(decision.cardId);
    if (decision.decision !== 'approve' || decision.allow === undefined || call === undefined)
      return {};
    const scope = grantScopeFor(call);
    if (typeof scope === 'string') return {};
    const grant: Grant = {
      n: this.grants.length + 1,
      tool: call.tool,
      scope,
      cardId: decision.cardId,
      grantedBy: decision.decidedBy ?? null,
      grantedAt: at,
      ...(decision.allow === 'session' ? { for: 'session' as const } : {}),
    };
    if (decision.allow === 'session' && where === 'child') {
      // The session numbers it; until it sends the list back, it applies here as given.
      this.provisional.push(grant);
      return { forSession: { ...grant } };
    }
    this.grants.push(grant);
    if (grant.for === 'session') this.changes += 1;
    return { n: grant.n };
  }

  /** A session records a grant one of its children's cards gave for the rest of the session. */
  adopt(grant: Grant, delegationId: string): Grant {
    const adopted: Grant = {
      ...grant,
      n: this.grants.length + 1,
      for: 'session',
      delegationId,
    };
    delete adopted.revoked;
    this.grants.push(adopted);
    this.changes += 1;
    return { ...adopted };
  }

  /** The session grants, revoked ones included (what a session sends its children). */
  forSession(): Grant[] {
    return this.grants.filter((grant) => grant.for === 'session').map((grant) => ({ ...grant }));
  }

  /** How many times the session grants changed (a session sends them when this moves). */
  sessionChanges(): number {
    return this.changes;
  }

  /** A Task child: its session's grants, as the session last sent them. */
  setSessionGrants(grants: Grant[]): void {
    this.sessionGrants = grants.map((grant) => ({ ...grant }));
    this.provisional = this.provisional.filter(
      (mine) => !grants.some((grant) => grant.cardId === mine.cardId),
    );
  }

  /** What a Task child carries across continue-as-new: the session grants it knows. */
  heldForSession(): Grant[] {
    return [...this.sessionGrants, ...this.provisional].map((grant) => ({ ...grant }));
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
    if (grant.for === 'session') this.changes += 1;
    return { ...grant };
  }

  /** Every grant, revoked ones included (what the state shows). */
  all(): Grant[] {
    return this.grants.map((grant) => ({ ...grant }));
  }

  /** The grants policy applies: its own, and a Task child's session grants. */
  active(): Grant[] {
    return [...this.grants, ...this.sessionGrants, ...this.provisional].filter(
      (grant) => grant.revoked === undefined,
    );
  }
}

/** Where a book sits: a session's own grants, a Task child's, or a delegation outside one. */
export type GrantHolder = 'delegation' | 'session' | 'child';

/** What recording an approval gave: a grant's number here, or one for the session to record. */
export interface GrantRecorded {
  n?: number;
  forSession?: Grant;
}
