/**
 * Delegations: every delegation the API lists, filtered by agent, session and status (kept in
 * the URL query so a filtered view can be linked), re-read every few seconds.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DELEGATION_STATUSES, listDelegations, type DelegationFilter } from '../api/delegations';
import type { DelegationStatus } from '../api/types';
import { ErrorBanner, Loading } from '../components/Feedback';
import { useSettings } from '../components/Settings';
import { DelegationFilters } from './delegations/DelegationFilters';
import { DelegationTable } from './delegations/DelegationTable';
import { StartForm } from './delegations/StartForm';
import { RefreshControls } from './delegations/RefreshControls';
import { useAgentNames } from './delegations/use-agent-names';
import { usePolled } from './delegations/use-polled';
import { useSessionNames } from './inbox/use-session-names';
import './delegations/delegations.css';

/** How often the list is re-read, milliseconds. */
const REFRESH_MS = 5000;

function filterOf(params: URLSearchParams): DelegationFilter {
  const filter: DelegationFilter = {};
  const agent = params.get('agent');
  const session = params.get('session');
  const status = params.get('status');
  if (agent !== null && agent !== '') filter.agent = agent;
  if (session !== null && session !== '') filter.session = session;
  if (status !== null && (DELEGATION_STATUSES as readonly string[]).includes(status)) {
    filter.status = status as DelegationStatus;
  }
  return filter;
}

export function DelegationsPage() {
  const [params, setParams] = useSearchParams();
  const filter = filterOf(params);
  const { tokenGeneration } = useSettings();
  const key = `${tokenGeneration}?${new URLSearchParams({ ...filter }).toString()}`;
  const list = usePolled((signal) => listDelegations(filter, signal), key, REFRESH_MS);
  const agents = useAgentNames(tokenGeneration);
  const rows = list.value ?? [];
  const sessions = useSessionNames(
    rows.flatMap((row) => (row.session === null ? [] : [row.session])),
    tokenGeneration,
  );
  const filtered = Object.keys(filter).length > 0;
  const [starting, setStarting] = useState(false);

  return (
    <main className="page delegations-page">
      <h1>Delegations</h1>
      <details
        className="start-details"
        onToggle={(event) => setStarting(event.currentTarget.open)}
      >
        <summary>Start a delegation…</summary>
        {/* Mounted once opened, so its fields never stand beside the filters' unseen. */}
        {starting ? <StartForm agents={agents} /> : null}
      </details>
      <div className="toolbar">
        <DelegationFilters
          filter={filter}
          agents={[
            ...new Set([...agents, ...rows.flatMap((r) => (r.agent === null ? [] : [r.agent]))]),
          ].sort()}
          sessions={sessions}
          onChange={(next) => setParams({ ...next })}
        />
        <span className="spacer" />
        <RefreshControls list={list} />
      </div>
      <ErrorBanner error={list.error} />
      {list.value === null ? (
        list.error === null ? (
          <Loading what="delegations" />
        ) : null
      ) : rows.length === 0 ? (
        <p className="empty">
          {filtered ? 'No delegation matches these filters.' : 'No delegations yet.'}
        </p>
      ) : (
        <DelegationTable rows={rows} />
      )}
    </main>
  );
}
