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
  const item = (kind: string, title: ReactNode, body?: ReactNode, tone = '') => (
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
  switch (event.type) {
    case 'started':
      return item(
        'started',
        'Started',
        <p>
          {event.agent} on <code>{event.model}</code>
        </p>,
      );
    case 'model-turn':
      return item(
        'model-turn',
        `Model turn ${event.round}`,
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
        </>,
      );
    case 'tool-call': {
      const refused = event.verdict === 'deny' || event.verdict === 'ask:denied';
      const args = argumentsOf(event, card);
      return item(
        'tool-call',
        <>
          Tool call <code>{event.tool}</code> · {verdictText(event.verdict)}
        </>,
        <>
          {args === null ? null : <Collapsible label="Arguments" text={args} />}
          <Collapsible label={refused ? 'Told the model' : 'Result'} text={event.summary} />
        </>,
        refused ? 'refused' : '',
      );
    }
    case 'card-opened':
      return item(
        'card',
        <>
          Card opened for <code>{event.card.tool}</code>
        </>,
        <>
          <p>{event.card.reason}</p>
          <Collapsible label="Arguments" text={JSON.stringify(event.card.arguments, null, 2)} />
        </>,
      );
    case 'card-decided':
      return item(
        'card-decided',
        <>
          Card for <code>{event.card.tool}</code>{' '}
          {event.card.state.status === 'approved' ? 'approved' : 'denied'}
        </>,
        <p className="decision">{cardStateText(event.card)}</p>,
        event.card.state.status === 'denied' ? 'refused' : 'ok',
      );
    case 'card-reminder':
      return item(
        'card',
        <>
          Reminder: the card for <code>{event.card.tool}</code> still waits
        </>,
      );
    case 'finished': {
      const { result } = event;
      return item(
        'finished',
        <>
          Finished <StatusBadge status={result.status} />
        </>,
        <>
          {result.notice === null ? null : (
            <p className={`banner ${result.status === 'failed' ? 'error' : 'warning'}`}>
              {result.notice}
            </p>
          )}
          <Collapsible label="Result" text={result.text} />
          {(result.deniedCalls ?? []).length === 0 ? null : (
            <figure className="timeline-block">
              <figcaption>Denied calls</figcaption>
              <ul className="denied-calls">
                {(result.deniedCalls ?? []).map((call, index) => (
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
        </>,
        result.status === 'completed' ? 'ok' : 'refused',
      );
    }
    case 'message':
      return item(
        'message',
        `Message${event.from === null ? '' : ` from ${event.from}`}`,
        <p className="turn-text">{event.text}</p>,
      );
    case 'reply':
      return item('reply', 'Reply', <p className="turn-text">{event.text}</p>);
    case 'task-started':
    case 'task-finished':
      return item(
        'task',
        event.type === 'task-started' ? 'Task started' : 'Task finished',
        <pre>{JSON.stringify(event.task, null, 2)}</pre>,
      );
    case 'compacted':
      // A long run's older rounds replaced by a summary (or dropped with a note): docs/sessions.md.
      return item(
        'compacted',
        event.by === 'summary'
          ? `${event.roundsReplaced} earlier rounds summarized`
          : `${event.roundsReplaced} earlier rounds dropped`,
        <>
          <p>
            Before round {event.round + 1}: about {event.tokensBefore.toLocaleString()} tokens of
            transcript became {event.tokensAfter.toLocaleString()}.
          </p>
          <p className="turn-text">{event.text}</p>
        </>,
      );
    case 'starts-mid-run':
      // Earlier runs of a continued-as-new workflow that could not be read: docs/http-api.md.
      return item(
        'compacted',
        `${event.eventsNotReplayed} earlier events not shown`,
        <p>{event.text}</p>,
      );
  }
}
