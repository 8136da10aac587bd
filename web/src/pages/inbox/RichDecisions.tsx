/**
 * A card's decisions beyond approve and deny, each behind a disclosure so the plain
 * choice stays one key away: answer in the tool's place (the text becomes its result and the
 * tool does not run), and approve with edited arguments.
 */
import { useId, useState, type FormEvent } from 'react';
import type { ApprovalCard } from '../../api/types';
import { ArgumentsForm } from './ArgumentsForm';
import type { CardDecisions } from './use-card-decisions';

export function RichDecisions({
  card,
  decisions,
  disabled,
}: {
  card: ApprovalCard;
  decisions: CardDecisions;
  disabled: boolean;
}) {
  const id = useId();
  const [answer, setAnswer] = useState('');
  const [editing, setEditing] = useState(false);
  const submitAnswer = (event: FormEvent) => {
    event.preventDefault();
    if (answer.trim() !== '') void decisions.decide(card, 'answer', { answer });
  };
  return (
    <div className="rich-decisions">
      <details>
        <summary>Answer instead</summary>
        <form onSubmit={submitAnswer} noValidate>
          <div className="field">
            <label htmlFor={`${id}-answer`}>Answer in place of {card.tool}</label>
            <textarea
              id={`${id}-answer`}
              rows={3}
              value={answer}
              disabled={disabled}
              aria-describedby={`${id}-answer-hint`}
              onChange={(event) => setAnswer(event.target.value)}
            />
            <p className="hint" id={`${id}-answer-hint`}>
              The tool does not run: the model reads this text as its result.
            </p>
          </div>
          <button type="submit" disabled={disabled || answer.trim() === ''}>
            Send answer
          </button>
        </form>
      </details>
      <details onToggle={(event) => setEditing(event.currentTarget.open)}>
        <summary>Edit arguments</summary>
        {/* Mounted once opened: the MCP schema is only asked for then. */}
        {editing ? (
          <ArgumentsForm
            card={card}
            disabled={disabled}
            onApprove={(args) => void decisions.decide(card, 'approve', { arguments: args })}
          />
        ) : null}
      </details>
    </div>
  );
}
