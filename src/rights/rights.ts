/**
 * Who may stop a delegation and decide its cards, with auth on (deciding needs the rights the
 * card's tool needs). Without auth every caller is anonymous and these checks do not apply:
 * the loopback-only server and its Host/Origin guard are the protection then.
 *
 * - An `admin` may stop any delegation and decide any card.
 * - The delegation's owner (the user who started it, recorded at start) may stop it and decide
 *   any of its cards: its tools were resolved for that user's roles in the first place.
 * - Anyone else may decide only a pending card of a `read`-class catalog tool (reading needs no
 *   role) and stop nothing. A write, exec, MCP or config card, or one for a tool the catalog does
 *   not know, is refused; approve and deny alike, since a denial ends someone else's work too.
 * - Reading a transcript (events, messages, answers, tool results) is the owner's or an admin's,
 *   as forking it is: anyone else reads a summary and the cards they may decide (transcript-view.ts).
 *
 * Every refusal is a DeputyError `forbidden` (403) that says what would be needed.
 */
import { toolClassOf } from '../capabilities/providers.js';
import { ADMIN_ROLE, type Caller } from '../shared/caller.js';
import { delegationIdOfCard, type ApprovalCard } from '../shared/delegation.js';
import { DeputyError, isDeputyError } from '../errors.js';
import type { Delegations } from '../temporal/delegations/facade.js';

function isAdmin(caller: Caller): boolean {
  return caller.roles.includes(ADMIN_ROLE);
}

/** Auth off (anonymous caller) or an admin: nothing to look up. */
export function unrestricted(caller: Caller): boolean {
  return caller.id === null || isAdmin(caller);
}

/** A pending card anyone may decide: one for a `read`-class catalog tool (reading needs no role). */
export function isOpenToAll(card: Pick<ApprovalCard, 'tool'>): boolean {
  return toolClassOf(card.tool) === 'read';
}

/**
 * Authoring: with auth on, only an `admin` may read agents in full, change them, or
 * generate text for them. Without auth every caller is anonymous and may.
 */
export function requireAdmin(caller: Caller, action: string): void {
  if (!unrestricted(caller)) {
    throw new DeputyError('forbidden', `${action} needs the '${ADMIN_ROLE}' role`);
  }
}

/**
 * Auth off, an admin, or the user who started `id` (its owner, from the memo). `owners` is the
 * facade the id belongs to (a session's owner lookup is `not-found` for a delegation id); it is
 * asked only for a caller who is neither anonymous nor an admin.
 */
export async function isOwnerOrAdmin(
  owners: Pick<Delegations, 'owner'>,
  caller: Caller,
  id: string,
): Promise<boolean> {
  if (unrestricted(caller)) return true;
  return (await owners.owner(id)) === caller.id;
}

/** The refusal of the owner-or-admin rule, naming the action it refused. */
export function ownerOrAdminRefusal(action: string): DeputyError {
  return new DeputyError(
    'forbidden',
    `${action} needs the '${ADMIN_ROLE}' role or being the user who started it`,
  );
}

/**
 * Stopping a delegation or session, or sending a session a message (which makes its agent act
 * with its owner's roles): an admin or the user who started it.
 */
export async function assertMayStop(
  owners: Pick<Delegations, 'owner'>,
  caller: Caller,
  delegationId: string,
  action = `stopping delegation ${delegationId}`,
): Promise<void> {
  if (await isOwnerOrAdmin(owners, caller, delegationId)) return;
  throw ownerOrAdminRefusal(action);
}

export async function assertMayDecide(
  delegations: Delegations,
  caller: Caller,
  cardId: string,
): Promise<void> {
  if (unrestricted(caller)) return;
  // The path check (path-ids.ts) made sure this is a card id.
  const delegationId = delegationIdOfCard(cardId) ?? cardId;
  let owner: string | null;
  try {
    owner = await delegations.owner(delegationId);
  } catch (error) {
    if (isDeputyError(error, 'not-found')) {
      throw new DeputyError('not-found', `no approval card with id '${cardId}'`);
    }
    throw error;
  }
  if (owner === caller.id) return;

  const state = await delegations.get(delegationId);
  // Already decided: let decide() say so (409); nobody's decision can change it any more.
  if (state.decidedCards.some((card) => card.id === cardId)) return;
  const card = state.pendingCards.find((pending) => pending.id === cardId);
  if (card === undefined) {
    // Not pending now: not opened yet, or no worker can tell. Refuse rather than guess its tool,
    // or a caller could pre-approve the next card of someone else's delegation.
    throw new DeputyError(
      'forbidden',
      `card ${cardId} is not pending, so its tool cannot be checked; only an '${ADMIN_ROLE}' or the user who started delegation ${delegationId} may decide it now`,
    );
  }
  if (!isOpenToAll(card)) {
    const toolClass = toolClassOf(card.tool);
    throw new DeputyError(
      'forbidden',
      `card ${cardId} is for '${card.tool}' (${toolClass ?? 'unknown'} tool): deciding it needs the '${ADMIN_ROLE}' role or being the user who started delegation ${delegationId}`,
    );
  }
}
