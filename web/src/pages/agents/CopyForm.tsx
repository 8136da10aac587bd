/**
 * Copy an agent, every field and the prompt byte for byte, to the user (default) or project
 * level under a new name: how a built-in is customised. The API's refusal of the name (422 rule,
 * 409 taken or reserved) shows on the name field; what was typed stays.
 */
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { agentRoute, duplicateAgent, type AgentDetail, type WritableLevel } from '../../api/agents';
import { ApiError } from '../../api/client';
import { ErrorBanner } from '../../components/Feedback';

export function CopyForm({ agent }: { agent: AgentDetail }) {
  const navigate = useNavigate();
  const id = useId();
  const [name, setName] = useState(`${agent.name}-copy`);
  const [level, setLevel] = useState<WritableLevel>('user');
  const [busy, setBusy] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [otherError, setOtherError] = useState<unknown>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setNameError(null);
    setOtherError(null);
    duplicateAgent(agent.name, { name: name.trim(), level }, agent.level).then(
      (answer) => navigate(agentRoute(answer.agent.name, answer.agent.level)),
      (error: unknown) => {
        setBusy(false);
        const problem = nameProblem(error);
        if (problem === null) setOtherError(error);
        else setNameError(problem);
      },
    );
  };

  return (
    <form className="copy-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name of the copy</label>
        <input
          id={`${id}-name`}
          type="text"
          value={name}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={nameError === null ? undefined : true}
          aria-describedby={`${id}-hint${nameError === null ? '' : ` ${id}-error`}`}
          autoComplete="off"
          spellCheck={false}
        />
        <p className="hint" id={`${id}-hint`}>
          Lower-case letters, digits and dashes. Every field is copied as it is.
        </p>
        {nameError === null ? null : (
          <p className="field-error" id={`${id}-error`} role="alert">
            {nameError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-level`}>Copy to</label>
        <select
          id={`${id}-level`}
          value={level}
          onChange={(event) => setLevel(event.target.value as WritableLevel)}
          aria-describedby={`${id}-level-hint`}
        >
          <option value="user">User level</option>
          <option value="project">Project level</option>
        </select>
        <p className="hint" id={`${id}-level-hint`}>
          User: yours, in every workspace. Project: this workspace only.
        </p>
      </div>
      <ErrorBanner error={otherError} />
      <button type="submit" className="primary" disabled={busy}>
        Copy to {level} level
      </button>
    </form>
  );
}

/** The API's words about the name: a 422 issue on `name`, or a 409 (taken, reserved). */
function nameProblem(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409) return error.body.message ?? 'that name is taken';
  if (error.status === 422) {
    const issue = error.issues.find((entry) => entry.path === 'name' || entry.path === '');
    return issue?.message ?? error.body.message ?? null;
  }
  return null;
}
