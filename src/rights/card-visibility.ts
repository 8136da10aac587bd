/**
 * Which pending cards a caller may decide, for every inbox (`GET /cards`, `GET /cards/events`, the
 * MCP door's `deputy_cards`): with auth on, a caller who is neither an admin nor the delegation's
 * owner may decide only a pending card of a `read`-class tool (rights.ts), so that is all an inbox
 * lists for them: it never shows a card whose approve button would answer 403.
 */
import type { Caller } from '../shared/caller.js';
import type { ApprovalCard } from '../shared/delegation.js';
import { isDeputyError } from '../errors.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import { isOpenToAll, unrestricted } from './rights.js';

/** Filters a listing of pending cards down to those `caller` may decide. */
export type CardVisibility = (cards: ApprovalCard[]) => Promise<ApprovalCard[]>;

/**
 * The filter for one caller. Owners are looked up once per delegation (from the memo, no worker
 * needed) and kept for the delegations of the latest listing only, so a long-lived stream does not
 * grow a cache of every delegation it ever saw. An owner lookup Temporal cannot answer fails the
 * listing (503, or the stream's `error` event) rather than hiding cards.
 */
export function cardVisibility(
  delegations: Pick<Delegations, 'owner'>,
  caller: Caller,
): CardVisibility {
  if (unrestricted(caller)) return async (cards) => cards;
  const owners = new Map<string, Promise<string | null>>();
  const ownerOf = (delegationId: string): Promise<string | null> => {
    let owner = owners.get(delegationId);
    if (owner === undefined) {
      owner = delegations.owner(delegationId).catch((error: unknown) => {
        // Gone since the listing: nobody's card any more. Anything else is not remembered.
        if (isDeputyError(error, 'not-found')) return null;
        owners.delete(delegationId);
        throw error;
      });
      owners.set(delegationId, owner);
    }
    return owner;
  };
  return async (cards) => {
    const listed = new Set(cards.map((card) => card.delegationId));
    for (const delegationId of owners.keys()) {
      if (!listed.has(delegationId)) owners.delete(delegationId);
    }
    const verdicts = await Promise.all(
      cards.map(async (card) => mayDecidePending(card, caller, () => ownerOf(card.delegationId))),
    );
    return cards.filter((_, index) => verdicts[index] === true);
  };
}

/** A non-admin caller's right on a pending card: any `read`-class card, or any of their own. */
async function mayDecidePending(
  card: ApprovalCard,
  caller: Caller,
  owner: () => Promise<string | null>,
): Promise<boolean> {
  if (isOpenToAll(card)) return true;
  return (await owner()) === caller.id;
}
