/**
 * The box to send a session a message (`POST /sessions/:id/messages`). Enter sends, Shift+Enter
 * starts a new line; the message appears in the conversation when the session takes it up (a
 * `message` event), so the box only says it was accepted, or why not (a session that ended).
 */
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { messageOf } from '../../api/client';
import { sendSessionMessage } from '../../api/sessions';

export function MessageBox({
  sessionId,
  open,
  onSent,
}: {
  sessionId: string;
  /** False once the session has ended: it takes no more messages. */
  open: boolean;
  onSent(): void;
}) {
  const fieldId = useId();
  const hintId = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);

  const send = async () => {
    const message = text.trim();
    if (message === '' || busy) return;
    setBusy(true);
    setNote(null);
    try {
      await sendSessionMessage(sessionId, message);
      setText('');
      setNote({ tone: 'info', text: 'Sent. The session answers it in turn.' });
      onSent();
    } catch (error) {
      setNote({ tone: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <form className="message-box panel" onSubmit={onSubmit} aria-label="Send a message">
      <label htmlFor={fieldId}>Message</label>
      <textarea
        id={fieldId}
        rows={3}
        maxLength={100_000}
        value={text}
        disabled={!open}
        aria-describedby={hintId}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="toolbar">
        <span id={hintId} className="hint">
          {open
            ? 'Enter sends; Shift+Enter starts a new line.'
            : 'The session has ended and takes no more messages.'}
        </span>
        <span className="spacer" />
        <button type="submit" className="primary" disabled={!open || busy || text.trim() === ''}>
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
      <div aria-live="polite">
        {note === null ? null : (
          <p className={`banner ${note.tone}`} role={note.tone === 'error' ? 'alert' : undefined}>
            {note.text}
          </p>
        )}
      </div>
    </form>
  );
}
