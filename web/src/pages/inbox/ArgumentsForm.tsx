/**
 * Approve with edited arguments: a field per argument (typed by the tool's schema when the page
 * has it, else by the card's value), pre-filled with what the card asks. The server checks the
 * edit against the tool's schema and refuses one that widens the call (422, shown on the card):
 * the same path, a command inside the card's patterns, the same MCP tool.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { ApprovalCard } from '../../api/types';
import { argumentFields, argumentsOf, fieldText, type ArgumentField } from './argument-fields';
import { useToolSchema } from './use-tool-schema';

export function ArgumentsForm({
  card,
  disabled,
  onApprove,
}: {
  card: ApprovalCard;
  disabled: boolean;
  onApprove(args: Record<string, unknown>): void;
}) {
  const id = useId();
  const schema = useToolSchema(card.tool, true);
  const fields = useMemo(() => argumentFields(schema, card.arguments), [schema, card.arguments]);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const textOf = (field: ArgumentField) =>
    texts[field.name] ?? fieldText(field, card.arguments[field.name]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const all = Object.fromEntries(fields.map((field) => [field.name, textOf(field)]));
    const read = argumentsOf(fields, all);
    if ('problems' in read) {
      setProblems(read.problems);
      return;
    }
    setProblems({});
    onApprove(read.arguments);
  };

  return (
    <form className="arguments-form" onSubmit={submit} noValidate>
      {fields.map((field) => (
        <ArgumentInput
          key={field.name}
          field={field}
          fieldId={`${id}-${field.name}`}
          text={textOf(field)}
          problem={problems[field.name]}
          disabled={disabled}
          onText={(text) => setTexts((current) => ({ ...current, [field.name]: text }))}
        />
      ))}
      <p className="hint">
        The edit may not widen the call: the same path, a command inside what the card asked, the
        same MCP tool. The model is told the call ran with edited arguments.
      </p>
      <button type="submit" className="primary" disabled={disabled}>
        Approve with these arguments
      </button>
    </form>
  );
}

/** One argument's control (a checkbox, a text area or an input), its hint and its problem. */
function ArgumentInput({
  field,
  fieldId,
  text,
  problem,
  disabled,
  onText,
}: {
  field: ArgumentField;
  fieldId: string;
  text: string;
  problem: string | undefined;
  disabled: boolean;
  onText: (text: string) => void;
}) {
  const described = [
    field.description === undefined ? '' : `${fieldId}-hint`,
    problem === undefined ? '' : `${fieldId}-error`,
  ]
    .filter((part) => part !== '')
    .join(' ');
  const common = {
    id: fieldId,
    disabled,
    ...(described === '' ? {} : { 'aria-describedby': described }),
    ...(problem === undefined ? {} : { 'aria-invalid': true as const }),
  };
  return (
    <div className={field.kind === 'boolean' ? 'field field-inline' : 'field'}>
      {field.kind === 'boolean' ? (
        <input
          type="checkbox"
          {...common}
          checked={text === 'true'}
          onChange={(event) => onText(event.target.checked ? 'true' : 'false')}
        />
      ) : null}
      <label htmlFor={fieldId}>
        {field.name}
        {field.required ? ' (required)' : ''}
      </label>
      {field.kind === 'long-text' || field.kind === 'json' ? (
        <textarea
          {...common}
          rows={field.kind === 'json' ? 4 : 6}
          value={text}
          onChange={(event) => onText(event.target.value)}
        />
      ) : field.kind === 'boolean' ? null : (
        <input
          type={field.kind === 'number' ? 'number' : 'text'}
          {...common}
          value={text}
          onChange={(event) => onText(event.target.value)}
        />
      )}
      {field.description === undefined ? null : (
        <p className="hint" id={`${fieldId}-hint`}>
          {field.description}
        </p>
      )}
      {problem === undefined ? null : (
        <p className="field-error" id={`${fieldId}-error`}>
          {problem}
        </p>
      )}
    </div>
  );
}
