/**
 * How the cards decided on a delegation's or a session's page were settled, newest first (the
 * inbox keeps its own log, with links, in SettledLog).
 */
import type { SettledNote } from './use-card-decisions';

export function SettledNotes({ notes }: { notes: SettledNote[] }) {
  return (
    <div aria-live="polite">
      {notes.map((note) => (
        <p key={note.card.id} className={`banner ${note.tone === 'warning' ? 'warning' : 'info'}`}>
          <code>{note.card.tool}</code>: {note.message}
        </p>
      ))}
    </div>
  );
}
