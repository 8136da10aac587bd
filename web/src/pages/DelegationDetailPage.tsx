/**
 * One delegation: its header (status, task, times, Stop, the Temporal UI link), the cards that
 * wait on a decision (decided here like in the inbox), and its timeline, live from its events.
 * With auth, a caller who neither started it nor is an admin may not read its transcript: the
 * API answers its state as a summary (`withheld`) and its events with 403, so the page shows the
 * summary, the cards that caller may decide (from the state), and says why there is no timeline.
 */
import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../api/client';
import {
  getDelegation,
  listDelegations,
  type DelegationFilter,
  type DelegationSummary,
} from '../api/delegations';
import type { ApprovalCard, DelegationEvent, DelegationView } from '../api/types';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { DetailHeader } from './delegations/DetailHeader';
import { GrantsList } from './delegations/GrantsList';
import { ResumeForm } from './delegations/ResumeForm';
import { SteerBox } from './delegations/SteerBox';
import { Timeline } from './delegations/Timeline';
import { useDelegationEvents, type EventsState } from './delegations/use-delegation-events';
import { usePolled } from './delegations/use-polled';
import { CardView } from './inbox/CardView';
import { useNow } from './inbox/time';
import { SettledNotes } from './inbox/SettledNotes';
import { useCardDecisions, type SettledNote } from './inbox/use-card-decisions';
import './inbox/inbox.css';
import './delegations/delegations.css';

/** How often the state is re-read besides on each event (a worker may apply a decision late). */
const STATE_REFRESH_MS = 5000;
/** After `finished`, only to catch the listing's close time (visibility lags a little). */
const FINISHED_REFRESH_MS = 30_000;

/** Reads of the listing before a delegation missing from it is shown without its task. */
const LISTING_ATTEMPTS = 4;
const LISTING_RETRY_MS = 1000;

/**
 * The delegation's row in the listing. Visibility may not have a run that started or ended a
 * moment ago: asked again a few times, a second apart, rather than showing "—" until the next
 * refresh (30 s once finished).
 */
async function listedRow(
  id: string,
  filter: DelegationFilter,
  signal: AbortSignal,
): Promise<DelegationSummary | null> {
  for (let attempt = 1; ; attempt++) {
    const row = (await listDelegations(filter, signal)).find((one) => one.delegationId === id);
    if (row !== undefined) return row;
    if (attempt === LISTING_ATTEMPTS) return null;
    await new Promise((resolve) => setTimeout(resolve, LISTING_RETRY_MS));
    signal.throwIfAborted();
  }
}

export function DelegationDetailPage() {
  const id = useParams().id ?? '';
  const { tokenGeneration } = useSettings();
  const events = useDelegationEvents(id, tokenGeneration);
  const { state, summary } = useDelegationState(id, tokenGeneration, events);
  const [notes, setNotes] = useState<SettledNote[]>([]);
  const [stopNote, setStopNote] = useState<string | null>(null);
  const onSettled = useCallback(
    (note: SettledNote) => setNotes((current) => [note, ...current]),
    [],
  );
  const decisions = useCardDecisions(onSettled);
  const now = useNow();
  const settledHere = useMemo(() => new Set(notes.map((note) => note.card.id)), [notes]);
  // Without the events, the state's cards (already only those this caller may decide).
  const forbidden = events.stream === 'forbidden';
  const pending = (
    forbidden ? (state.value?.pendingCards ?? []) : pendingCards(events.events)
  ).filter((card) => !settledHere.has(card.id));

  if (state.value === null) return <NotShown id={id} error={state.error} />;

  const finishedEvent = events.events.find((event) => event.type === 'finished');
  // Steering and resuming act as its owner: a caller shown a summary may do neither.
  const owned = state.value.withheld === undefined;
  const ended = events.stream === 'finished' || ENDED.has(state.value.status);
  const grants = state.value.grants ?? [];
  return (
    <main className="page delegation-page">
      <DetailHeader
        state={state.value}
        summary={summary.value ?? null}
        finishedAt={finishedEvent?.at ?? null}
        onStopped={(message) => {
          setStopNote(message);
          state.refresh();
        }}
      />
      <ErrorBanner error={state.error} />
      <StateBanners state={state.value} stopNote={stopNote} />
      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">Waiting for a decision ({pending.length})</h2>
        <SettledNotes notes={notes} />
        {pending.length === 0 ? (
          <p className="empty">No card of this delegation is waiting.</p>
        ) : (
          <ul className="card-list">
            {pending.map((card) => (
              <li key={card.id}>
                <CardView card={card} now={now} decisions={decisions} showDelegation={false} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {grants.length === 0 ? null : (
        <GrantsList
          delegationId={id}
          grants={grants}
          mayRevoke={owned && !ended}
          onRevoked={state.refresh}
        />
      )}
      {owned ? (
        <SteerBox
          key={`steer-${id}`}
          delegationId={id}
          messages={state.value.messages ?? []}
          open={!ended}
          onSent={state.refresh}
        />
      ) : null}
      {owned && ended ? <ResumeForm key={`resume-${id}`} delegationId={id} /> : null}
      <TimelineSection events={events} />
    </main>
  );
}

/**
 * The delegation's state, re-read on each event, and its row in the listing (the state has no
 * task or start time: the listing has them, filtered to narrow the search).
 */
function useDelegationState(id: string, tokenGeneration: number, events: EventsState) {
  const key = `${tokenGeneration}/${id}`;
  // A finished delegation changes no more; until then each event may have changed its state.
  const finished = events.stream === 'finished';
  const state = usePolled(
    (signal) => getDelegation(id, signal),
    key,
    finished ? FINISHED_REFRESH_MS : STATE_REFRESH_MS,
    events.events.length,
  );
  const listFilter =
    state.value === null ? null : { session: state.value.session, agent: state.value.agent };
  const summary = usePolled(
    (signal) => (listFilter === null ? Promise.resolve(null) : listedRow(id, listFilter, signal)),
    `${key}/${listFilter?.session ?? ''}/${listFilter?.agent ?? ''}`,
    finished ? FINISHED_REFRESH_MS : STATE_REFRESH_MS * 2,
    finished,
  );
  return { state, summary };
}

/** Before the state is read: no such delegation (404), the error, or loading. */
function NotShown({ id, error }: { id: string; error: unknown }) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <main className="page">
        <h1>No such delegation</h1>
        <p className="banner warning">No delegation has the id {id}.</p>
      </main>
    );
  }
  return (
    <main className="page">
      <h1>Delegation {id}</h1>
      <ErrorBanner error={error} />
      {error === null ? <Loading what="the delegation" /> : null}
    </main>
  );
}

/** What the state leaves out (a summary, a partial read), and what Stop answered. */
function StateBanners({ state, stopNote }: { state: DelegationView; stopNote: string | null }) {
  return (
    <>
      {state.withheld === undefined ? null : (
        <p role="status" className="banner warning">
          Summary only: reading this delegation&apos;s transcript, tool results and answers needs
          the admin role or being the user who started it. You see its state and the cards you may
          decide.
        </p>
      )}
      {state.partial === undefined ? null : (
        <p role="status" className="banner warning">
          Partial state: {state.partial}. Its decided cards, transcript and usage are not known from
          here (not empty); this page asks again.
        </p>
      )}
      {stopNote === null ? null : (
        <p role="status" className="banner info">
          {stopNote}
        </p>
      )}
    </>
  );
}

function TimelineSection({ events }: { events: EventsState }) {
  return (
    <section aria-labelledby="timeline-heading">
      <div className="timeline-bar">
        <h2 id="timeline-heading">Timeline</h2>
        <StreamStatus events={events} />
      </div>
      {events.stream === 'forbidden' ? (
        <p className="empty">Not allowed: {events.problem}</p>
      ) : events.events.length === 0 ? (
        events.stream === 'connecting' ? (
          <Loading what="the events" />
        ) : (
          <p className="empty">No events yet.</p>
        )
      ) : (
        <Timeline events={events.events} />
      )}
    </section>
  );
}

/** Statuses after which a delegation takes no message, and may be resumed instead. */
const ENDED = new Set(['completed', 'failed', 'stopped']);

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

function StreamStatus({ events }: { events: EventsState }) {
  const text =
    events.stream === 'forbidden'
      ? 'Not allowed'
      : events.stream === 'finished'
        ? 'Finished; the timeline is complete.'
        : events.stream === 'live'
          ? 'Live'
          : events.stream === 'connecting'
            ? 'Connecting…'
            : events.problem === 'the stream ended'
              ? 'The event stream ended. Reload the page to follow it again.'
              : `Live updates are down (${events.problem ?? 'no connection'}); reconnecting…`;
  return (
    <p role="status" className={`connection connection-${events.stream}`}>
      <span className="connection-dot" aria-hidden="true" />
      {text}
      {events.stream !== 'down' && events.stream !== 'forbidden' && events.problem !== null
        ? ` (${events.problem})`
        : ''}
    </p>
  );
}
