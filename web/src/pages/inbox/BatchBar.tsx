/**
 * Deciding several cards at once (`POST /cards/decisions`): how many are selected,
 * select all or none, and approve or deny the selected ones in one request, each with its own
 * reason field. What each card came to shows as for a single decision.
 */
import type { ApprovalCard } from '../../api/types';
import type { CardDecisions } from './use-card-decisions';

export function BatchBar({
  cards,
  selected,
  onSelect,
  decisions,
}: {
  cards: ApprovalCard[];
  selected: ApprovalCard[];
  onSelect(ids: string[]): void;
  decisions: CardDecisions;
}) {
  const count = selected.length;
  return (
    <div className="batch-bar" role="group" aria-label="Several cards at once">
      <span aria-live="polite">
        {count} of {cards.length} selected
      </span>
      <button
        type="button"
        onClick={() => onSelect(count === cards.length ? [] : cards.map((card) => card.id))}
      >
        {count === cards.length ? 'Select none' : 'Select all'}
      </button>
      <button
        type="button"
        className="primary"
        disabled={count === 0}
        onClick={() => void decisions.decideAll(selected, 'approve')}
      >
        Approve selected
      </button>
      <button
        type="button"
        className="danger"
        disabled={count === 0}
        onClick={() => void decisions.decideAll(selected, 'deny')}
      >
        Deny selected
      </button>
    </div>
  );
}
