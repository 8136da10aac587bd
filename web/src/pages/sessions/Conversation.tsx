/**
 * A session as a chat, from its events in order: each message it took up, each reply, each task
 * its agent started with `Task` and how it ended, and the cards (its own and its tasks') inline
 * where they opened: a pending one with its approve / deny controls, a settled one as a line.
 * Tool calls and model turns stay on the delegation pages of the session and of its tasks.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ApprovalCard, DelegationEvent } from '../../api/types';
import { CardView } from '../inbox/CardView';
import { cardStateText } from '../inbox/outcome-text';
import { AbsoluteTime } from '../inbox/time';
import type { CardDecisions } from '../inbox/use-card-decisions';
import { StatusBadge } from '../delegations/StatusBadge';

export function Conversation({
  events,
  agent,
  pending,
  decisions,
  now,
}: {
  events: DelegationEvent[];
  agent: string;
  /** The cards still waiting (settled ones show as a line where they opened). */
  pending: ReadonlySet<string>;
  decisions: CardDecisions;
  now: number;
}) {
  const decided = decidedCards(events);
  const entries = events.filter(shown);
  return (
    <ol className="conversation">
      {entries.map((event) => (
        <li
          key={`${event.seq}-${event.type}-${event.type === 'card-opened' ? event.card.id : ''}`}
          className={`chat-entry chat-${event.type}`}
        >
          <Entry
            event={event}
            agent={agent}
            pending={pending}
            decided={decided}
            decisions={decisions}
            now={now}
          />
        </li>
      ))}
    </ol>
  );
}

type Shown = Extract<
  DelegationEvent,
  { type: 'message' | 'reply' | 'task-started' | 'task-finished' | 'card-opened' | 'finished' }
>;

function shown(event: DelegationEvent): event is Shown {
  return ['message', 'reply', 'task-started', 'task-finished', 'card-opened', 'finished'].includes(
    event.type,
  );
}

function decidedCards(events: DelegationEvent[]): Map<string, ApprovalCard> {
  const decided = new Map<string, ApprovalCard>();
  for (const event of events) {
    if (event.type === 'card-decided') decided.set(event.card.id, event.card);
  }
  return decided;
}

function Entry({
  event,
  agent,
  pending,
  decided,
  decisions,
  now,
}: {
  event: Shown;
  agent: string;
  pending: ReadonlySet<string>;
  decided: Map<string, ApprovalCard>;
  decisions: CardDecisions;
  now: number;
}) {
  switch (event.type) {
    case 'message':
      return (
        <Bubble who={event.from === null ? 'You' : event.from} at={event.at}>
          <p className="chat-text">{event.text}</p>
        </Bubble>
      );
    case 'reply':
      return (
        <Bubble who={agent} at={event.at}>
          <p className="chat-text">{event.text}</p>
        </Bubble>
      );
    case 'task-started':
    case 'task-finished':
      return (
        <p className="chat-note">
          {event.type === 'task-started' ? 'Task started: ' : 'Task finished: '}
          <Link to={`/delegations/${encodeURIComponent(event.task.taskId)}`}>
            {event.task.agent}: {event.task.description}
          </Link>{' '}
          <StatusBadge status={event.task.status} /> <AbsoluteTime iso={event.at} />
        </p>
      );
    case 'card-opened': {
      if (pending.has(event.card.id)) {
        return <CardView card={event.card} now={now} decisions={decisions} />;
      }
      const settled = decided.get(event.card.id);
      return (
        <p className="chat-note">
          Card: {event.card.agent} asked to run <code>{event.card.tool}</code>:{' '}
          {settled === undefined ? 'settled' : cardStateText(settled)}
        </p>
      );
    }
    case 'finished':
      return (
        <p className="chat-note">
          The session ended: <StatusBadge status={event.result.status} />{' '}
          <AbsoluteTime iso={event.at} />
        </p>
      );
  }
}

function Bubble({ who, at, children }: { who: string; at: string; children: ReactNode }) {
  return (
    <article className="chat-bubble" aria-label={`${who} at ${new Date(at).toLocaleTimeString()}`}>
      <header className="chat-who">
        <strong>{who}</strong> <AbsoluteTime iso={at} />
      </header>
      {children}
    </article>
  );
}
