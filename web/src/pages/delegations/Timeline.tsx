/**
 * A delegation's timeline from its events: the model's turns, the tool calls with what they
 * returned, cards opened and how each was settled, and the final result. The event stream does
 * not carry a tool call's arguments; a call that went through a card shows that card's
 * (redacted) arguments, the others show their result only.
 */
import type { ReactNode } from 'react';
import type { ApprovalCard, DelegationEvent } from '../../api/types';
import { cardStateText } from '../inbox/outcome-text';
import { AbsoluteTime } from '../inbox/time';
import { Collapsible } from './Collapsible';
import { StatusBadge } from './StatusBadge';

/** How a tool-call's verdict reads. */
function verdictText(verdict: string): string {
  switch (verdict) {
    case 'allow':
      return 'allowed by policy';
    case 'deny':
      return 'denied by policy';
    case 'ask:approved':
      return 'approved on its card';
    case 'ask:denied':
      return 'denied on its card';
    default:
      return verdict;
  }
}

/** The card each asked tool call went through: the n-th `ask:` call of a tool, its n-th card. */
function cardsOfCalls(events: DelegationEvent[]): Map<number, ApprovalCard> {
  const queues = new Map<string, ApprovalCard[]>();
  const byCall = new Map<number, ApprovalCard>();
  for (const event of events) {
    if (event.type === 'card-opened') {
      queues.set(event.card.tool, [...(queues.get(event.card.tool) ?? []), event.card]);
    } else if (event.type === 'tool-call' && event.verdict.startsWith('ask:')) {
      const card = queues.get(event.tool)?.shift();
      if (card !== undefined) byCall.set(event.seq, card);
    }
  }
  return byCall;
}

export function Timeline({ events }: { events: DelegationEvent[] }) {
  const cards = cardsOfCalls(events);
  return (
    <ol className="timeline">
      {events.map((event) => (
        <Entry
          key={`${event.seq}-${event.type}-${cardIdOf(event)}`}
          event={event}
          card={cards.get(event.seq)}
        />
      ))}
    </ol>
  );
}

/**
 * What a tool call was called with: the event's own preview (redacted JSON, maybe cut), or for
 * an event recorded before events carried it, its card's arguments when it had a card.
 */
function argumentsOf(
  event: Extract<DelegationEvent, { type: 'tool-call' }>,
  card: ApprovalCard | undefined,
): string | null {
  if (event.arguments !== undefined) return prettyJson(event.arguments);
  return card === undefined ? null : JSON.stringify(card.arguments, null, 2);
}

/** Indented when it parses (a preview cut at its limit does not: shown as it is). */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function cardIdOf(event: DelegationEvent): string {
  return 'card' in event ? event.card.id : '';
}

function Entry({ event, card }: { event: DelegationEvent; card: ApprovalCard | undefined }) {
  const { kind, title, body, tone = '' } = entryOf(event, card);
  return (
    <li className={`timeline-entry kind-${kind}${tone === '' ? '' : ` tone-${tone}`}`}>
      <div className="timeline-head">
        <span className="timeline-title">{title}</span>
        <span className="timeline-time">
          <AbsoluteTime iso={event.at} />
        </span>
      </div>
      {body}
    </li>
  );
}

/** What an entry shows: its kind (its class), its title, what is below it, and its tone. */
interface EntryView {
  kind: string;
  title: ReactNode;
  body?: ReactNode;
  tone?: string;
}

type EventOf<T extends DelegationEvent['type']> = Extract<DelegationEvent, { type: T }>;

function entryOf(event: DelegationEvent, card: ApprovalCard | undefined): EntryView {
  switch (event.type) {
    case 'started':
      return {
        kind: 'started',
        title: 'Started',
        body: (
          <p>
            {event.agent} on <code>{event.model}</code>
          </p>
        ),
      };
    case 'model-turn':
      return {
        kind: 'model-turn',
        title: `Model turn ${event.round}`,
        body: <TurnBody event={event} />,
      };
    case 'tool-call':
      return toolCallEntry(event, card);
    case 'card-opened':
    case 'card-decided':
    case 'card-reminder':
      return cardEntry(event);
    case 'finished':
      return {
        kind: 'finished',
        title: (
          <>
            Finished <StatusBadge status={event.result.status} />
          </>
        ),
        body: <FinishedBody result={event.result} />,
        tone: event.result.status === 'completed' ? 'ok' : 'refused',
      };
    case 'message':
      return {
        kind: 'message',
        title: `Message${event.from === null ? '' : ` from ${event.from}`}`,
        body: <p className="turn-text">{event.text}</p>,
      };
    case 'reply':
      return { kind: 'reply', title: 'Reply', body: <p className="turn-text">{event.text}</p> };
    case 'task-started':
    case 'task-finished':
      return {
        kind: 'task',
        title: event.type === 'task-started' ? 'Task started' : 'Task finished',
        body: <pre>{JSON.stringify(event.task, null, 2)}</pre>,
      };
    case 'compacted':
      return compactedEntry(event);
    case 'starts-mid-run':
      // Earlier runs of a continued-as-new workflow that could not be read: docs/http-api.md.
      return {
        kind: 'compacted',
        title: `${event.eventsNotReplayed} earlier events not shown`,
        body: <p>{event.text}</p>,
      };
  }
}

function TurnBody({ event }: { event: EventOf<'model-turn'> }) {
  return (
    <>
      {event.text === '' ? null : <p className="turn-text">{event.text}</p>}
      {event.toolCalls.length === 0 ? null : (
        <p className="hint">
          Asks for:{' '}
          {event.toolCalls.map((name, index) => (
            <code key={index} className="chip">
              {name}
            </code>
          ))}
        </p>
      )}
    </>
  );
}

function toolCallEntry(event: EventOf<'tool-call'>, card: ApprovalCard | undefined): EntryView {
  const refused = event.verdict === 'deny' || event.verdict === 'ask:denied';
  const args = argumentsOf(event, card);
  return {
    kind: 'tool-call',
    title: (
      <>
        Tool call <code>{event.tool}</code> · {verdictText(event.verdict)}
      </>
    ),
    body: (
      <>
        {args === null ? null : <Collapsible label="Arguments" text={args} />}
        <Collapsible label={refused ? 'Told the model' : 'Result'} text={event.summary} />
      </>
    ),
    tone: refused ? 'refused' : '',
  };
}

function cardEntry(event: EventOf<'card-opened' | 'card-decided' | 'card-reminder'>): EntryView {
  switch (event.type) {
    case 'card-opened':
      return {
        kind: 'card',
        title: (
          <>
            Card opened for <code>{event.card.tool}</code>
          </>
        ),
        body: (
          <>
            <p>{event.card.reason}</p>
            <Collapsible label="Arguments" text={JSON.stringify(event.card.arguments, null, 2)} />
          </>
        ),
      };
    case 'card-decided':
      return {
        kind: 'card-decided',
        title: (
          <>
            Card for <code>{event.card.tool}</code>{' '}
            {event.card.state.status === 'approved' ? 'approved' : 'denied'}
          </>
        ),
        body: <p className="decision">{cardStateText(event.card)}</p>,
        tone: event.card.state.status === 'denied' ? 'refused' : 'ok',
      };
    case 'card-reminder':
      return {
        kind: 'card',
        title: (
          <>
            Reminder: the card for <code>{event.card.tool}</code> still waits
          </>
        ),
      };
  }
}

function FinishedBody({ result }: { result: EventOf<'finished'>['result'] }) {
  const denied = result.deniedCalls ?? [];
  return (
    <>
      {result.notice === null ? null : (
        <p className={`banner ${result.status === 'failed' ? 'error' : 'warning'}`}>
          {result.notice}
        </p>
      )}
      <Collapsible label="Result" text={result.text} />
      {denied.length === 0 ? null : (
        <figure className="timeline-block">
          <figcaption>Denied calls</figcaption>
          <ul className="denied-calls">
            {denied.map((call, index) => (
              <li key={index}>
                <code>{call.tool}</code> denied by {call.by}: {call.reason}
              </li>
            ))}
          </ul>
        </figure>
      )}
      <p className="hint">
        {result.roundsUsed} round{result.roundsUsed === 1 ? '' : 's'}
        {result.usage === undefined
          ? ''
          : ` · ${(result.usage.inputTokens + result.usage.outputTokens).toLocaleString()} tokens`}
      </p>
    </>
  );
}

/** A long run's older rounds replaced by a summary (or dropped with a note): docs/sessions.md. */
function compactedEntry(event: EventOf<'compacted'>): EntryView {
  return {
    kind: 'compacted',
    title:
      event.by === 'summary'
        ? `${event.roundsReplaced} earlier rounds summarized`
        : `${event.roundsReplaced} earlier rounds dropped`,
    body: (
      <>
        <p>
          Before round {event.round + 1}: about {event.tokensBefore.toLocaleString()} tokens of
          transcript became {event.tokensAfter.toLocaleString()}.
        </p>
        <p className="turn-text">{event.text}</p>
      </>
    ),
  };
}
