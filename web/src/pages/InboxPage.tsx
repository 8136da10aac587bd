/**
 * The approvals inbox, the console's home: every pending card the caller may decide, live, with
 * a session filter in the URL (`?session=`), and decisions by mouse or by keys alone.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSettings } from '../components/Settings';
import type { ApprovalCard } from '../api/types';
import { CardView, cardDomId, reasonInputId } from './inbox/CardView';
import { BatchBar } from './inbox/BatchBar';
import { ConnectionStatus } from './inbox/ConnectionStatus';
import { SettledLog } from './inbox/SettledLog';
import { useNow } from './inbox/time';
import { useCardDecisions, type CardDecisions } from './inbox/use-card-decisions';
import { useCardInbox } from './inbox/use-card-inbox';
import { useInboxKeys } from './inbox/use-inbox-keys';
import { useSessionNames } from './inbox/use-session-names';
import { Loading } from '../components/Feedback';
import './inbox/inbox.css';

export function InboxPage() {
  const [params, setParams] = useSearchParams();
  const session = params.get('session') ?? '';
  const { tokenGeneration } = useSettings();
  const { state, settle } = useCardInbox(session, tokenGeneration);
  const decisions = useCardDecisions(settle);
  const now = useNow();
  const cards = useMemo(() => state.cards ?? [], [state.cards]);
  const sessions = useSessionNames(
    [session, ...cards.map((card) => card.session), ...state.settled.map((n) => n.card.session)],
    tokenGeneration,
  );
  const selection = useSelection(cards);
  // Cards chosen for one decision together; a card that left the list leaves the choice too.
  const [batchIds, setBatchIds] = useState<string[]>([]);
  const batched = cards.filter((card) => batchIds.includes(card.id));
  const keyed = useKeyDecisions(cards, selection, decisions);
  const selectedId = selection.card?.id;

  return (
    <main className="page inbox-page">
      <h1>Approvals</h1>
      <div className="toolbar">
        <SessionFilter
          session={session}
          sessions={sessions}
          onChange={(next) => setParams(next === '' ? {} : { session: next })}
        />
        <span className="spacer" />
        <ConnectionStatus connection={state.connection} />
      </div>
      <p className="hint keys-help" id="inbox-keys">
        Keys: <kbd>j</kbd> / <kbd>k</kbd> next / previous card · <kbd>a</kbd> approve · <kbd>d</kbd>{' '}
        deny: type a reason, <kbd>Enter</kbd> confirms, <kbd>Esc</kbd> goes back. Keys do nothing
        while you type in a field.
      </p>
      {state.serverProblem === null ? null : (
        <p role="alert" className="banner warning">
          {state.serverProblem}
        </p>
      )}
      <h2 id="pending-heading">
        Waiting for a decision{state.cards === null ? '' : ` (${cards.length})`}
      </h2>
      {state.cards === null ? (
        <Loading what="the pending cards" />
      ) : cards.length === 0 ? (
        <p className="empty">
          No cards are waiting{session === '' ? '' : ` in session ${session}`}.
        </p>
      ) : (
        <>
          <BatchBar cards={cards} selected={batched} onSelect={setBatchIds} decisions={decisions} />
          <ul className="card-list" aria-labelledby="pending-heading" aria-describedby="inbox-keys">
            {cards.map((card) => (
              <li key={card.id}>
                <CardView
                  card={card}
                  now={now}
                  decisions={keyed}
                  selected={card.id === selectedId}
                  onSelect={() => selection.select(card)}
                  onReasonEscape={() => focusCard(card.id)}
                  batch={{
                    selected: batchIds.includes(card.id),
                    onChange: (on) =>
                      setBatchIds((ids) =>
                        on ? [...ids, card.id] : ids.filter((id) => id !== card.id),
                      ),
                  }}
                />
              </li>
            ))}
          </ul>
        </>
      )}
      <SettledLog notes={state.settled} />
    </main>
  );
}

function SessionFilter({
  session,
  sessions,
  onChange,
}: {
  session: string;
  sessions: string[];
  onChange: (session: string) => void;
}) {
  return (
    <>
      <label htmlFor="inbox-session">Session</label>
      <select id="inbox-session" value={session} onChange={(event) => onChange(event.target.value)}>
        <option value="">All sessions</option>
        {sessions.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </>
  );
}

/**
 * Decisions by keys: j and k move, a approves, d goes to the reason (where Enter denies). The
 * decided card leaves the list and takes the focus with it: the focus goes to the card now
 * selected in its place, so the next key works at once. Returns the decisions that note this.
 */
function useKeyDecisions(
  cards: ApprovalCard[],
  selection: ReturnType<typeof useSelection>,
  decisions: CardDecisions,
): CardDecisions {
  const refocus = useRef(false);
  const selectedId = selection.card?.id;
  useEffect(() => {
    if (!refocus.current) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body && active.isConnected) return;
    refocus.current = false;
    if (selectedId !== undefined) document.getElementById(cardDomId(selectedId))?.focus();
  }, [selectedId, cards]);

  const keyed: CardDecisions = {
    ...decisions,
    decide: (card, kind, extras) => {
      refocus.current = true;
      return decisions.decide(card, kind, extras);
    },
  };
  useInboxKeys({
    move: (step) => {
      const next = cards[selection.index + step];
      if (next !== undefined) focusCard(next.id);
    },
    approve: () => {
      if (selection.card !== undefined) void keyed.decide(selection.card, 'approve');
    },
    deny: () => {
      if (selection.card !== undefined)
        document.getElementById(reasonInputId(selection.card.id))?.focus();
    },
  });
  return keyed;
}

function focusCard(cardId: string): void {
  const element = document.getElementById(cardDomId(cardId));
  element?.focus();
  element?.scrollIntoView({ block: 'nearest' });
}

/**
 * The selected card: the one last focused while it is listed; when it leaves, the card now at
 * its place (or the last one); the first card before anything was chosen.
 */
function useSelection(cards: ApprovalCard[]) {
  const [chosen, setChosen] = useState<{ id: string; index: number } | null>(null);
  const found = chosen === null ? -1 : cards.findIndex((card) => card.id === chosen.id);
  const index = found >= 0 ? found : Math.max(0, Math.min(chosen?.index ?? 0, cards.length - 1));
  return {
    card: cards[index],
    index,
    select: (card: ApprovalCard) => setChosen({ id: card.id, index: cards.indexOf(card) }),
  };
}
