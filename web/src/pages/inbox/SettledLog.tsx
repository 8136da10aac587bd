/**
 * Cards that just left the inbox and why: decided here, decided elsewhere (another tab, the
 * CLI), already decided when this page tried (409), or settled by a deadline or a stop. Always
 * in the page, so its live region announces each new line.
 */
import { Link } from 'react-router';
import type { SettledNote } from './use-card-decisions';

export function SettledLog({ notes }: { notes: SettledNote[] }) {
  return (
    <section className="settled-log" aria-labelledby="settled-heading">
      <h2 id="settled-heading" className={notes.length === 0 ? 'visually-hidden' : undefined}>
        Just settled
      </h2>
      <ul aria-live="polite" aria-relevant="additions">
        {notes.map(({ card, message, tone }) => (
          <li key={card.id} className={`settled-note tone-${tone}`} data-card={card.id}>
            <span className="settled-what">
              {card.agent} · <code>{card.tool}</code> ·{' '}
              <Link to={`/delegations/${encodeURIComponent(card.delegationId)}`}>
                {card.delegationId}
              </Link>
            </span>
            <span className="settled-message">{message}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
