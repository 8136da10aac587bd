/**
 * One pending approval card: who asks to run what with which arguments (as the server sent
 * them: already redacted, never unredacted here), why it asks, where it comes from, how long it
 * has waited, and the approve / deny controls with an optional reason. Used by the inbox and by
 * a delegation's page.
 */
import { useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { ApprovalCard } from '../../api/types';
import { RichDecisions } from './RichDecisions';
import { RelativeTime } from './time';
import type { CardDecisions } from './use-card-decisions';

/** DOM ids derived from the card id, so a page's keys can reach a card and its reason field. */
export const cardDomId = (cardId: string) => `card-${cardId}`;
export const reasonInputId = (cardId: string) => `card-${cardId}-reason`;
const allowRestId = (cardId: string) => `card-${cardId}-allow-rest`;

export interface CardViewProps {
  card: ApprovalCard;
  now: number;
  decisions: CardDecisions;
  /** Roving focus in a list (the inbox): only the selected card is in the tab order. */
  selected?: boolean;
  onSelect?: () => void;
  /** Escape in the reason field hands focus back (the inbox returns it to the card). */
  onReasonEscape?: () => void;
  /** Hidden on a delegation's own page, where it would link to itself. */
  showDelegation?: boolean;
  /** In a batch (the inbox): whether it is selected, and the checkbox's change. */
  batch?: { selected: boolean; onChange(selected: boolean): void };
}

export function CardView({
  card,
  now,
  decisions,
  selected,
  onSelect,
  onReasonEscape,
  showDelegation = true,
  batch,
}: CardViewProps) {
  const titleId = `${cardDomId(card.id)}-title`;
  const status = decisions.statusOf(card.id);
  const locked = status.busy !== null || status.recorded;
  const roving = selected !== undefined;
  return (
    <article
      id={cardDomId(card.id)}
      className={`card-view panel${selected === true ? ' selected' : ''}`}
      aria-labelledby={titleId}
      {...(roving
        ? { tabIndex: selected ? 0 : -1, 'aria-current': selected ? 'true' : undefined }
        : {})}
      onFocus={onSelect}
    >
      <CardHead card={card} now={now} titleId={titleId} locked={locked} batch={batch} />
      <p className="card-why">
        <strong>Why it asks:</strong> {card.reason}
      </p>
      <CardMeta card={card} showDelegation={showDelegation} />
      <figure className="card-arguments">
        <figcaption>Arguments</figcaption>
        <pre>{JSON.stringify(card.arguments, null, 2)}</pre>
      </figure>
      <CardActions
        card={card}
        decisions={decisions}
        titleId={titleId}
        locked={locked}
        onReasonEscape={onReasonEscape}
      />
      <p className="hint" id={`${allowRestId(card.id)}-hint`}>
        Allow for the rest: later <code>{card.tool}</code> calls of this delegation in the same
        scope (the same paths, the same command patterns, the same MCP tool) run without a card;
        revocable on the delegation&apos;s page.
      </p>
      <RichDecisions card={card} decisions={decisions} disabled={locked} />
      {status.message === null ? null : (
        <p role="status" className={`banner ${status.tone} card-note`}>
          {status.message}
        </p>
      )}
    </article>
  );
}

/** Who asks to run what, the batch checkbox, and the card's times. */
function CardHead({
  card,
  now,
  titleId,
  locked,
  batch,
}: Pick<CardViewProps, 'card' | 'now' | 'batch'> & { titleId: string; locked: boolean }) {
  return (
    <header className="card-head">
      <h3 id={titleId}>
        {card.agent} asks to run <code>{card.tool}</code>
      </h3>
      {batch === undefined ? null : (
        <span className="batch-select">
          <input
            id={`${cardDomId(card.id)}-batch`}
            type="checkbox"
            checked={batch.selected}
            disabled={locked}
            onChange={(event) => batch.onChange(event.target.checked)}
          />
          <label htmlFor={`${cardDomId(card.id)}-batch`}>Select</label>
        </span>
      )}
      <span className="card-times">
        <RelativeTime iso={card.openedAt} now={now} prefix="opened " />
        {card.remindedAt === undefined ? null : (
          <span className="chip">
            <RelativeTime iso={card.remindedAt} now={now} prefix="reminded " />
          </span>
        )}
        {card.deadline === undefined ? null : (
          <span className="chip warning">
            <RelativeTime iso={card.deadline} now={now} prefix="deadline " />
          </span>
        )}
      </span>
    </header>
  );
}

function CardMeta({ card, showDelegation }: { card: ApprovalCard; showDelegation: boolean }) {
  return (
    <dl className="card-meta">
      {showDelegation ? (
        <div>
          <dt>Delegation</dt>
          <dd>
            <Link to={`/delegations/${encodeURIComponent(card.delegationId)}`}>
              {card.delegationId}
            </Link>
          </dd>
        </div>
      ) : null}
      <div>
        <dt>Session</dt>
        <dd>{card.session}</dd>
      </div>
      <div>
        <dt>Card</dt>
        <dd>
          <code>{card.id}</code>
        </dd>
      </div>
    </dl>
  );
}

/** The reason, "allow for the rest", Approve and Deny; Enter in the reason denies. */
function CardActions({
  card,
  decisions,
  titleId,
  locked,
  onReasonEscape,
}: Pick<CardViewProps, 'card' | 'decisions' | 'onReasonEscape'> & {
  titleId: string;
  locked: boolean;
}) {
  const status = decisions.statusOf(card.id);
  // Approve, and allow the same tool in the same scope for the rest of the delegation (a grant).
  const [allowRest, setAllowRest] = useState(false);
  const onReasonKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void decisions.decide(card, 'deny');
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onReasonEscape?.();
    }
  };
  return (
    <div className="card-actions">
      <label htmlFor={reasonInputId(card.id)}>Reason</label>
      <input
        id={reasonInputId(card.id)}
        type="text"
        placeholder="optional; Enter denies"
        maxLength={2000}
        value={decisions.reasonOf(card.id)}
        disabled={locked}
        onChange={(event) => decisions.setReason(card.id, event.target.value)}
        onKeyDown={onReasonKey}
      />
      <span className="allow-rest">
        <input
          id={allowRestId(card.id)}
          type="checkbox"
          checked={allowRest}
          disabled={locked}
          aria-describedby={`${allowRestId(card.id)}-hint`}
          onChange={(event) => setAllowRest(event.target.checked)}
        />
        <label htmlFor={allowRestId(card.id)}>Allow for the rest of this delegation</label>
      </span>
      <button
        type="button"
        className="primary"
        aria-describedby={titleId}
        disabled={locked}
        onClick={() =>
          void decisions.decide(card, 'approve', allowRest ? { allow: 'delegation' } : {})
        }
      >
        {status.busy === 'approve' ? 'Approving…' : 'Approve'}
      </button>
      <button
        type="button"
        className="danger"
        aria-describedby={titleId}
        disabled={locked}
        onClick={() => void decisions.decide(card, 'deny')}
      >
        {status.busy === 'deny' ? 'Denying…' : 'Deny'}
      </button>
    </div>
  );
}
