/**
 * A delegation's header: who runs what, its status, when it started and finished, and its
 * actions: Stop while it runs or waits, and a link to its workflow in the Temporal UI.
 */
import type { ReactNode } from 'react';
import type { DelegationSummary } from '../../api/delegations';
import type { DelegationView } from '../../api/types';
import { useSettings } from '../../components/Settings';
import { AbsoluteTime } from '../inbox/time';
import { StatusBadge } from './StatusBadge';
import { StopButton } from './StopButton';

const STOPPABLE = new Set(['running', 'parked', 'idle']);

/** The workflow's page in the Temporal UI; the id has slashes (`delegation/<session>/<id>`). */
export function temporalUiLink(base: string, namespace: string, workflowId: string): string {
  return `${base.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

export function DetailHeader({
  state,
  summary,
  finishedAt,
  onStopped,
}: {
  state: DelegationView;
  summary: DelegationSummary | null;
  /** From the `finished` event when the listing has not caught up. */
  finishedAt: string | null;
  onStopped(message: string): void;
}) {
  const { settings } = useSettings();
  const closedAt = summary?.closedAt ?? finishedAt;
  const tokens =
    state.usage === undefined
      ? summary?.tokens
      : state.usage.inputTokens + state.usage.outputTokens;
  return (
    <header className="detail-header">
      <div className="detail-title">
        <h1>
          Delegation <code>{state.delegationId}</code>
        </h1>
        <StatusBadge status={state.status} />
        <span className="spacer" />
        {/* A summary (`withheld`) is answered to a caller who may not stop it either. */}
        {STOPPABLE.has(state.status) && state.withheld === undefined ? (
          <StopButton
            delegationId={state.delegationId}
            pendingCards={state.pendingCards.length}
            onStopped={onStopped}
          />
        ) : null}
        {settings.temporalUi === null ? null : (
          <a
            className="button"
            href={temporalUiLink(settings.temporalUi, settings.namespace, state.workflowId)}
            target="_blank"
            rel="noreferrer"
          >
            Open in Temporal UI
          </a>
        )}
      </div>
      <dl className="detail-facts">
        <Fact term="Agent">{state.agent}</Fact>
        <Fact term="Task">{summary?.task ?? '—'}</Fact>
        <Fact term="Session">{state.session}</Fact>
        <Fact term="Model">{state.model === null ? '—' : <code>{state.model}</code>}</Fact>
        <Fact term="Started">
          {summary === null ? '—' : <AbsoluteTime iso={summary.startedAt} />}
        </Fact>
        <Fact term="Finished">{closedAt == null ? '—' : <AbsoluteTime iso={closedAt} />}</Fact>
        <Fact term="Rounds">
          {state.roundsUsed}
          {state.maxTurns > 0 ? ` of ${state.maxTurns}` : ''}
        </Fact>
        <Fact term="Tokens">{tokens == null ? '—' : tokens.toLocaleString()}</Fact>
        <Fact term="Workflow">
          <code>{state.workflowId}</code>
        </Fact>
      </dl>
    </header>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
