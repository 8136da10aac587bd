/**
 * Start a delegation from the Delegations page: an agent from the workspace's list, a task, the
 * session its cards go to, and whether it runs unattended (every call that would ask is denied
 * at once). `POST /delegations` answers at once (the console never waits on a run), then the
 * delegation's page opens. A refusal shows under the task, which stays as typed.
 */
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { startDelegation } from '../../api/agents';
import { seg } from '../../api/client';
import { refusalText } from './refusal-text';

export function StartForm({ agents }: { agents: string[] }) {
  const navigate = useNavigate();
  const id = useId();
  const [agent, setAgent] = useState('');
  const [task, setTask] = useState('');
  const [session, setSession] = useState('');
  const [unattended, setUnattended] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = agent === '' ? (agents[0] ?? '') : agent;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    startDelegation({
      agent: chosen,
      task,
      ...(session.trim() === '' ? {} : { session: session.trim() }),
      ...(unattended ? { unattended: true } : {}),
    }).then(
      (started) => navigate(`/delegations/${seg(started.delegationId)}`),
      (error: unknown) => {
        setBusy(false);
        setProblem(refusalText(error));
      },
    );
  };

  return (
    <form className="start-form panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Start a delegation</h2>
      <div className="field">
        <label htmlFor={`${id}-agent`}>Agent</label>
        <select
          id={`${id}-agent`}
          value={chosen}
          onChange={(event) => setAgent(event.target.value)}
        >
          {agents.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-task`}>Task</label>
        <textarea
          id={`${id}-task`}
          rows={3}
          value={task}
          onChange={(event) => setTask(event.target.value)}
          aria-invalid={problem === null ? undefined : true}
          aria-describedby={problem === null ? undefined : `${id}-error`}
        />
        {problem === null ? null : (
          <p className="field-error" id={`${id}-error`} role="alert">
            {problem}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-session`}>Session (optional)</label>
        <input
          id={`${id}-session`}
          type="text"
          value={session}
          placeholder="default"
          aria-describedby={`${id}-session-hint`}
          onChange={(event) => setSession(event.target.value)}
        />
        <p className="hint" id={`${id}-session-hint`}>
          Its approval cards go to this session&apos;s inbox.
        </p>
      </div>
      <div className="field field-inline">
        <input
          id={`${id}-unattended`}
          type="checkbox"
          checked={unattended}
          aria-describedby={`${id}-unattended-hint`}
          onChange={(event) => setUnattended(event.target.checked)}
        />
        <label htmlFor={`${id}-unattended`}>Unattended</label>
        <p className="hint" id={`${id}-unattended-hint`}>
          No one will answer: every call that would ask for approval is denied at once.
        </p>
      </div>
      <button type="submit" className="primary" disabled={busy || chosen === ''}>
        {busy ? 'Starting…' : 'Start delegation'}
      </button>
    </form>
  );
}
