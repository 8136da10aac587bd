/**
 * Hand this agent a task: POST /delegations, then the delegation's own page. A delegation names
 * the agent, so it runs the effective definition of that name; a refusal (4xx) shows under the
 * task, which stays as typed.
 */
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { startDelegation } from '../../api/agents';
import { ApiError, messageOf, seg } from '../../api/client';

export function DelegateForm({ agent }: { agent: string }) {
  const navigate = useNavigate();
  const id = useId();
  const [task, setTask] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    startDelegation({ agent, task }).then(
      (started) => navigate(`/delegations/${seg(started.delegationId)}`),
      (error: unknown) => {
        setBusy(false);
        setProblem(describe(error));
      },
    );
  };

  return (
    <form className="delegate-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-task`}>Task</label>
        <textarea
          id={`${id}-task`}
          rows={4}
          value={task}
          onChange={(event) => setTask(event.target.value)}
          aria-invalid={problem === null ? undefined : true}
          aria-describedby={`${id}-hint${problem === null ? '' : ` ${id}-error`}`}
        />
        <p className="hint" id={`${id}-hint`}>
          The agent sees only this text. Its approval cards go to the default session&apos;s inbox.
        </p>
        {problem === null ? null : (
          <p className="field-error" id={`${id}-error`} role="alert">
            {problem}
          </p>
        )}
      </div>
      <button type="submit" className="primary" disabled={busy}>
        Start delegation
      </button>
    </form>
  );
}

function describe(error: unknown): string {
  if (error instanceof ApiError && error.issues.length > 0) {
    return error.issues
      .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`))
      .join('; ');
  }
  return messageOf(error);
}
