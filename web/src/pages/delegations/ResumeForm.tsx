/**
 * Resume a finished delegation with a new message (`POST /delegations/:id/resume`): a new
 * delegation goes on from its whole transcript (no tool runs again), and its page opens. A
 * refusal shows under the text, which stays as typed.
 */
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { seg } from '../../api/client';
import { resumeDelegation } from '../../api/steering';
import { refusalText } from './refusal-text';

export function ResumeForm({ delegationId }: { delegationId: string }) {
  const navigate = useNavigate();
  const id = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    setBusy(true);
    setProblem(null);
    resumeDelegation(delegationId, { text }).then(
      (started) => navigate(`/delegations/${seg(started.delegationId)}`),
      (error: unknown) => {
        setBusy(false);
        setProblem(refusalText(error));
      },
    );
  };
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Resume</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-text`}>New message</label>
          <textarea
            id={`${id}-text`}
            rows={3}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={problem === null ? undefined : true}
            aria-describedby={`${id}-hint${problem === null ? '' : ` ${id}-error`}`}
          />
          <p className="hint" id={`${id}-hint`}>
            A new delegation goes on from this one&apos;s whole transcript with this message; no
            tool runs again, and this one stays as it is.
          </p>
          {problem === null ? null : (
            <p className="field-error" id={`${id}-error`} role="alert">
              Not resumed: {problem}
            </p>
          )}
        </div>
        <button type="submit" className="primary" disabled={busy || text.trim() === ''}>
          {busy ? 'Resuming…' : 'Resume delegation'}
        </button>
      </form>
    </section>
  );
}
