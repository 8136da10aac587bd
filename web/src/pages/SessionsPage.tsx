/**
 * Sessions: every session the API lists, newest first, re-read every few seconds (the
 * listing comes from Temporal's visibility, which has no stream). Each row opens the session's
 * chat view.
 */
import { listSessions } from '../api/sessions';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { RefreshControls } from './delegations/RefreshControls';
import { usePolled } from './delegations/use-polled';
import { SessionTable } from './sessions/SessionTable';
import './delegations/delegations.css';
import './sessions/sessions.css';

/** How often the list is re-read, milliseconds. */
const REFRESH_MS = 5000;

export function SessionsPage() {
  const { tokenGeneration } = useSettings();
  const list = usePolled((signal) => listSessions(signal), `${tokenGeneration}`, REFRESH_MS);
  return (
    <main className="page sessions-page">
      <h1>Sessions</h1>
      <div className="toolbar">
        <span className="spacer" />
        <RefreshControls list={list} />
      </div>
      <ErrorBanner error={list.error} />
      {list.value === null ? (
        list.error === null ? (
          <Loading what="sessions" />
        ) : null
      ) : list.value.length === 0 ? (
        <p className="empty">
          No sessions yet. Start one with <code>deputy chat</code> or <code>POST /sessions</code>.
        </p>
      ) : (
        <SessionTable rows={list.value} />
      )}
    </main>
  );
}
