/** Small pieces every editor section uses: a titled section, a field's problems, a warning chip. */
import { useId, type ReactNode } from 'react';
import type { Problem } from './diagnostics';

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="panel editor-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A field's problems, worst first; `id` is what the field's aria-describedby names. */
export function Problems({
  id,
  problems,
}: {
  id: string;
  problems: readonly Problem[] | undefined;
}) {
  if (problems === undefined || problems.length === 0) return null;
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = [...problems].sort((a, b) => order[a.severity] - order[b.severity]);
  return (
    <ul id={id} className="problems">
      {sorted.map((problem, index) => (
        <li key={index} className={`problem ${problem.severity}`}>
          {problem.line === undefined ? '' : `Line ${problem.line}: `}
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

/** aria-describedby for a field: its hint and, when it has any, its problems. */
export function describedBy(
  hintId: string | null,
  problemsId: string,
  problems: readonly Problem[] | undefined,
): string | undefined {
  const ids = [hintId, problems !== undefined && problems.length > 0 ? problemsId : null].filter(
    (id): id is string => id !== null,
  );
  return ids.length === 0 ? undefined : ids.join(' ');
}

export const hasError = (problems: readonly Problem[] | undefined): boolean =>
  problems?.some((problem) => problem.severity === 'error') ?? false;

/**
 * A declared name that resolves to nothing: a warning-coloured button whose title and
 * accessible description say why (the check's message), and whose click removes the name.
 */
export function UnresolvedChip({
  name,
  why,
  onRemove,
  disabled,
}: {
  name: string;
  why: string;
  onRemove: () => void;
  disabled?: boolean;
}) {
  const reasonId = useId();
  return (
    <span className="unresolved">
      <button
        type="button"
        className="chip warning"
        title={why}
        aria-label={`${name}: resolves to nothing, remove`}
        aria-describedby={reasonId}
        onClick={onRemove}
        disabled={disabled}
      >
        <span aria-hidden="true">⚠</span> {name} <span aria-hidden="true">×</span>
      </button>
      <span id={reasonId} className="unresolved-reason">
        {why}
      </span>
    </span>
  );
}

/** A selected name (a skill, a server): a chip with its own remove button. */
export function NameChip({
  name,
  note,
  onRemove,
  disabled,
}: {
  name: string;
  note?: string;
  onRemove: () => void;
  disabled?: boolean;
}) {
  return (
    <span className="chip">
      {name}
      {note === undefined ? null : <span className="chip-note">{note}</span>}
      <button
        type="button"
        className="chip-remove"
        aria-label={`Remove ${name}`}
        onClick={onRemove}
        disabled={disabled}
      >
        ×
      </button>
    </span>
  );
}
