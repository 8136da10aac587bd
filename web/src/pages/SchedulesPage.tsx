/**
 * Schedules: every deputy schedule with its runs, re-read every few seconds (a run
 * shows in visibility a moment after it starts, and Temporal has no stream of schedules), a form
 * to create one, and each schedule's own actions.
 */
import { useState } from 'react';
import { listSchedules } from '../api/schedules';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { RefreshControls } from './delegations/RefreshControls';
import { useAgentNames } from './delegations/use-agent-names';
import { usePolled } from './delegations/use-polled';
import { ScheduleForm } from './schedules/ScheduleForm';
import { ScheduleItem } from './schedules/ScheduleItem';
import './delegations/delegations.css';
import './schedules/schedules.css';

/** How often the list is re-read, milliseconds. */
const REFRESH_MS = 3000;

export function SchedulesPage() {
  const { tokenGeneration } = useSettings();
  const list = usePolled((signal) => listSchedules(signal), `${tokenGeneration}`, REFRESH_MS);
  const agents = useAgentNames(tokenGeneration);
  const [creating, setCreating] = useState(false);

  return (
    <main className="page schedules-page">
      <h1>Schedules</h1>
      <details
        className="start-details"
        onToggle={(event) => setCreating(event.currentTarget.open)}
      >
        <summary>Create a schedule…</summary>
        {creating ? <ScheduleForm agents={agents} onCreated={list.refresh} /> : null}
      </details>
      <div className="toolbar">
        <span className="spacer" />
        <RefreshControls list={list} />
      </div>
      <ErrorBanner error={list.error} />
      {list.value === null ? (
        list.error === null ? (
          <Loading what="schedules" />
        ) : null
      ) : list.value.length === 0 ? (
        <p className="empty">
          No schedules yet. Create one above, with <code>deputy schedule create</code> or{' '}
          <code>POST /schedules</code>.
        </p>
      ) : (
        <div className="schedule-list">
          {list.value.map((schedule) => (
            <ScheduleItem key={schedule.name} schedule={schedule} onChanged={list.refresh} />
          ))}
        </div>
      )}
    </main>
  );
}
