/**
 * One session as a chat: what was said and answered, the tasks its agent started and
 * the cards waiting on them inline (decided here as in the inbox), a box to send the next
 * message, and Stop. Live from the session's event stream (`GET /sessions/:id/events`, which
 * carries its tasks' cards too), with its state re-read on each event for the tasks and the
 * status, as the delegation page does.
 */
import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../api/client';
import { getSession, sessionEventsPath, stopSession, type SessionView } from '../api/sessions';
import type { ApprovalCard, DelegationEvent, DelegationStatus } from '../api/types';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { StatusBadge } from './delegations/StatusBadge';
import { StopButton } from './delegations/StopButton';
import { useDelegationEvents, type EventsState } from './delegations/use-delegation-events';
import { usePolled } from './delegations/use-polled';
import { CardView } from './inbox/CardView';
import { useNow } from './inbox/time';
import { SettledNotes } from './inbox/SettledNotes';
import { useCardDecisions, type CardDecisions, type SettledNote } from './inbox/use-card-decisions';
import { Conversation } from './sessions/Conversation';
import { MessageBox } from './sessions/MessageBox';
import { TasksPanel } from './sessions/TasksPanel';
import './inbox/inbox.css';
import './delegations/delegations.css';
import './sessions/sessions.css';

/** How often the state is re-read besides on each event (tasks report between events too). */
const STATE_REFRESH_MS = 5000;
const OPEN = new Set(['running', 'parked', 'idle']);

export function SessionChatPage() {
  const id = useParams().id ?? '';
  const { tokenGeneration } = useSettings();
  const events = useDelegationEvents(id, tokenGeneration, sessionEventsPath(id));
  const finished = events.stream === 'finished';
  const [sent, setSent] = useState(0);
  const state = usePolled(
    (signal) => getSession(id, signal),
    `${tokenGeneration}/${id}`,
    finished ? 30_000 : STATE_REFRESH_MS,
    `${events.events.length}/${sent}`,
  );
  const [notes, setNotes] = useState<SettledNote[]>([]);
  const [stopNote, setStopNote] = useState<string | null>(null);
  const onSettled = useCallback(
    (note: SettledNote) => setNotes((current) => [note, ...current]),
    [],
  );
  const decisions = useCardDecisions(onSettled);
  const now = useNow();
  const pending = useMemo(() => {
    const settledHere = new Set(notes.map((note) => note.card.id));
    return new Set(
      pendingCards(events.events)
        .map((card) => card.id)
        .filter((cardId) => !settledHere.has(cardId)),
    );
  }, [events.events, notes]);

  if (state.value === null) return <NotShown id={id} error={state.error} />;

  const session = state.value;
  const open = OPEN.has(session.status) && !finished;
  return (
    <main className="page session-page">
      <SessionHeader
        session={session}
        status={finished ? (finalStatus(events.events) ?? session.status) : session.status}
        stoppable={open && session.withheld === undefined}
        pendingCards={pending.size}
        onStopped={(message) => {
          setStopNote(message);
          state.refresh();
        }}
      />
      <ErrorBanner error={state.error} />
      {stopNote === null ? null : (
        <p role="status" className="banner info">
          {stopNote}
        </p>
      )}
      <section aria-labelledby="conversation-heading">
        <div className="timeline-bar">
          <h2 id="conversation-heading">Conversation</h2>
          <p role="status" className={`connection connection-${events.stream}`}>
            <span className="connection-dot" aria-hidden="true" />
            {streamText(events.stream, events.problem)}
          </p>
        </div>
        <SettledNotes notes={notes} />
        <ConversationBody
          session={session}
          events={events}
          pending={pending}
          decisions={decisions}
          now={now}
        />
        {session.queuedMessages > 0 ? (
          <p className="hint">
            {session.queuedMessages === 1
              ? '1 message waits for its turn.'
              : `${session.queuedMessages} messages wait for their turn.`}
          </p>
        ) : null}
        {session.withheld === undefined ? (
          <MessageBox
            sessionId={session.delegationId}
            open={open}
            onSent={() => setSent((n) => n + 1)}
          />
        ) : null}
      </section>
      <section aria-labelledby="tasks-heading">
        <h2 id="tasks-heading">Tasks ({session.tasks.length})</h2>
        <TasksPanel tasks={session.tasks} />
      </section>
    </main>
  );
}

/** The session's id, status and agent, and Stop while it is open to its owner. */
function SessionHeader({
  session,
  status,
  stoppable,
  pendingCards,
  onStopped,
}: {
  session: SessionView;
  status: DelegationStatus;
  stoppable: boolean;
  pendingCards: number;
  onStopped: (message: string) => void;
}) {
  return (
    <header className="detail-title">
      <h1>
        Session <code>{session.delegationId}</code>
      </h1>
      <StatusBadge status={status} />
      <span className="muted">agent {session.agent}</span>
      <span className="spacer" />
      {stoppable ? (
        <StopButton
          delegationId={session.delegationId}
          pendingCards={pendingCards}
          stop={stopSession}
          noun="session"
          onStopped={onStopped}
        />
      ) : null}
    </header>
  );
}

/** Before the state is read: no such session (404), the error, or loading. */
function NotShown({ id, error }: { id: string; error: unknown }) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <main className="page">
        <h1>No such session</h1>
        <p className="banner warning">No session has the id {id}.</p>
      </main>
    );
  }
  return (
    <main className="page">
      <h1>Session {id}</h1>
      <ErrorBanner error={error} />
      {error === null ? <Loading what="the session" /> : null}
    </main>
  );
}

/**
 * What was said, with the waiting cards inline; a caller not allowed to read the conversation
 * sees the cards it may decide (from the state) instead.
 */
function ConversationBody({
  session,
  events,
  pending,
  decisions,
  now,
}: {
  session: SessionView;
  events: EventsState;
  pending: ReadonlySet<string>;
  decisions: CardDecisions;
  now: number;
}) {
  if (events.stream === 'forbidden') {
    return (
      <>
        <p className="empty">Not allowed: {events.problem}</p>
        <ul className="card-list">
          {session.pendingCards.map((card) => (
            <li key={card.id}>
              <CardView card={card} now={now} decisions={decisions} />
            </li>
          ))}
        </ul>
      </>
    );
  }
  if (events.events.length === 0) {
    return events.stream === 'connecting' ? (
      <Loading what="the conversation" />
    ) : (
      <p className="empty">Nothing said yet.</p>
    );
  }
  return (
    <Conversation
      events={events.events}
      agent={session.agent}
      pending={pending}
      decisions={decisions}
      now={now}
    />
  );
}

/** Cards opened and not decided yet, as their latest event shows them. */
function pendingCards(events: DelegationEvent[]): ApprovalCard[] {
  const open = new Map<string, ApprovalCard>();
  for (const event of events) {
    if (event.type === 'card-opened') open.set(event.card.id, event.card);
    else if (event.type === 'card-decided') open.delete(event.card.id);
    else if (event.type === 'finished') open.clear();
  }
  return [...open.values()];
}

function finalStatus(events: DelegationEvent[]) {
  const finishedEvent = events.find((event) => event.type === 'finished');
  return finishedEvent?.type === 'finished' ? finishedEvent.result.status : undefined;
}

function streamText(stream: string, problem: string | null): string {
  switch (stream) {
    case 'forbidden':
      return 'Not allowed';
    case 'finished':
      return 'Ended; the conversation is complete.';
    case 'live':
      return 'Live';
    case 'connecting':
      return 'Connecting…';
    default:
      return `Live updates are down (${problem ?? 'no connection'}); reconnecting…`;
  }
}
