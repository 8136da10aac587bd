/**
 * Steer a running delegation: a message the model gets as a user message at its next round
 * boundary (`POST /delegations/:id/messages`). The messages sent so far are listed from the
 * state, each waiting or delivered (before which round); a refusal (409 once it has finished,
 * 503 without a worker) is shown under the box, which keeps the text.
 */
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { refusalText } from './refusal-text';
import { sendMessage, type SteeringMessage } from '../../api/steering';

export function SteerBox({
  delegationId,
  messages,
  open,
  onSent,
}: {
  delegationId: string;
  messages: SteeringMessage[];
  /** False once it has finished: the list stays, the box says to resume instead. */
  open: boolean;
  onSent(): void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<SteeringMessage | null>(null);

  const send = async () => {
    if (text.trim() === '' || busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const queued = await sendMessage(delegationId, text);
      setSent(queued);
      setText('');
      onSent();
    } catch (error) {
      setProblem(refusalText(error));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  // Ctrl+Enter (or ⌘+Enter) sends, as in a chat; Enter alone is a new line.
  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };
  // The state may not list the message just sent yet: show it from the answer meanwhile.
  const shown =
    sent === null || messages.some((message) => message.seq === sent.seq)
      ? messages
      : [...messages, sent];

  return (
    <section aria-labelledby={`${id}-heading`} className="steer">
      <h2 id={`${id}-heading`}>Messages ({shown.length})</h2>
      <SentMessages shown={shown} />
      {open ? (
        <form onSubmit={submit} noValidate className="steer-form">
          <div className="field">
            <label htmlFor={`${id}-text`}>Message to the delegation</label>
            <textarea
              id={`${id}-text`}
              rows={3}
              value={text}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={onKey}
              aria-invalid={problem === null ? undefined : true}
              aria-describedby={`${id}-hint${problem === null ? '' : ` ${id}-error`}`}
            />
            <p className="hint" id={`${id}-hint`}>
              The model reads it at its next round boundary (a parked delegation: once its card is
              decided). Ctrl+Enter sends.
            </p>
            {problem === null ? null : (
              <p className="field-error" id={`${id}-error`} role="alert">
                Not sent: {problem}
              </p>
            )}
          </div>
          <button type="submit" className="primary" disabled={busy || text.trim() === ''}>
            {busy ? 'Sending…' : 'Send message'}
          </button>
        </form>
      ) : null}
    </section>
  );
}

/** The messages sent so far, each waiting or delivered (before which round). */
function SentMessages({ shown }: { shown: SteeringMessage[] }) {
  if (shown.length === 0) return <p className="empty">No message was sent to this delegation.</p>;
  return (
    <ol className="steer-messages">
      {shown.map((message) => (
        <li key={message.seq} className="panel">
          <p className="turn-text">{message.text}</p>
          <p className="hint">
            #{message.seq}
            {message.from === null ? '' : ` from ${message.from}`} ·{' '}
            {message.deliveredAt === null
              ? 'waiting for the next round'
              : `delivered before round ${message.deliveredBeforeRound ?? '?'}`}
          </p>
        </li>
      ))}
    </ol>
  );
}
